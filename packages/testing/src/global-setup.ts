import { ensureTemplate } from '@sendwell/db/testing';
import type { TestProject } from 'vitest/node';
import { resolveTestServices } from './services.js';
import type {} from './provided-context.js';

/**
 * Vitest globalSetup for every package with medium tests: finds Postgres and Redis once, migrates
 * the template database once, and hands the URLs to the test files through `inject()`.
 */
export default async function setup(project: TestProject) {
  const services = await resolveTestServices();
  await ensureTemplate(services.postgresUrl);
  project.provide('postgresUrl', services.postgresUrl);
  project.provide('redisUrl', services.redisUrl);
  return () => services.stop();
}
