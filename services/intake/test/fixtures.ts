import { createLogger, type App } from '@sendwell/server-kit';
import { startServiceHarness, type ServiceHarness } from '@sendwell/testing';
import { buildApp } from '../src/app.js';
import { createDeps, type Deps } from '../src/deps.js';
import { loadEnv } from '../src/env.js';
import { factory, type Factory } from './factory.js';

export const silentLogger = createLogger('intake-test', 'silent');
export const TEST_INTAKE_DOMAIN = 'reports.sendwell.test';

export type Harness = ServiceHarness<Deps, App, Factory>;

/** The real service on a database of its own and a Redis prefix of its own; tests start the servers and worker they need. */
export function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  return startServiceHarness(
    {
      service: 'intake',
      loadEnv,
      createDeps: (config) => createDeps(config, silentLogger),
      buildApp,
      factory,
      env: {
        INTAKE_DOMAIN: TEST_INTAKE_DOMAIN,
        INTAKE_PUBLIC_URL: 'https://app.sendwell.test',
        INTAKE_SMTP_PORT: '0',
      },
    },
    env,
  );
}
