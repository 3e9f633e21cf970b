import { createLogger, type App } from '@sendwell/server-kit';
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
