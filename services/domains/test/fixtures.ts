import { createLogger, type App } from '@sendwell/server-kit';
import { expect } from 'vitest';
import { startServiceHarness, type ServiceHarness } from '@sendwell/testing';
import { buildApp } from '../src/app.js';
import { createDeps, type Deps } from '../src/deps.js';
import { loadEnv } from '../src/env.js';
import { factory, type Factory } from './factory.js';

export const silentLogger = createLogger('domains-test', 'silent');

export type Harness = ServiceHarness<Deps, App, Factory>;

/** The real service on a database of its own and a Redis prefix of its own; the maintenance worker is started by the tests that need it. */
export function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  return startServiceHarness(
    {
      service: 'domains',
      loadEnv,
      createDeps: (config) => createDeps(config, silentLogger),
      buildApp,
      factory,
    },
    env,
  );
}

const withoutRequestId = (body: string) => {
  const { requestId: _ignored, ...rest } = JSON.parse(body) as Record<string, unknown>;
  return rest;
};

/**
 * Another user's (or a deleted) object answers exactly what a missing one does: both 404, the same
 * body but for the request id, so an answer never tells whether the object exists. Answers the
 * response to `ownUrl` for further checks.
 */
export async function expectAnswersLikeMissing(
  h: Harness,
  { ownUrl, missingUrl, headers, method = 'GET', payload }: { ownUrl: string; missingUrl: string; headers: Record<string, string>; method?: 'GET' | 'POST' | 'DELETE'; payload?: object },
) {
  const call = (url: string) => h.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const other = await call(ownUrl);
  const missing = await call(missingUrl);
  expect(other.statusCode).toBe(404);
  expect(missing.statusCode).toBe(404);
  expect(withoutRequestId(other.body)).toEqual(withoutRequestId(missing.body));
  return other;
}
