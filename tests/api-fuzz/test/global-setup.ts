import { fileURLToPath } from 'node:url';
import { startStack } from '@sendwell/testing';
import type { TestProject } from 'vitest/node';
import { fixtureRecords } from './support/fixture-dns.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    redisUrl: string;
  }
}

// No limit a fuzz run could reach: a 429 would stop its requests at the gateway, short of the services.
const UNLIMITED = '1000000/1m';

/** One whole stack for the run, as `pnpm start` wires it, with the fixture domain in DNS. */
export default async function setup(project: TestProject) {
  const stack = await startStack({
    logDir: fileURLToPath(new URL('../.logs', import.meta.url)),
    dnsRecords: fixtureRecords,
    label: 'fuzz',
    env: {
      gateway: {
        RATE_LIMIT_LOGIN: UNLIMITED,
        RATE_LIMIT_REGISTER: UNLIMITED,
        RATE_LIMIT_FORGOT_PASSWORD: UNLIMITED,
        RATE_LIMIT_RESET_PASSWORD: UNLIMITED,
        RATE_LIMIT_QUICK_CHECK: UNLIMITED,
        RATE_LIMIT_EMAIL_VERIFY: UNLIMITED,
        RATE_LIMIT_HISTORY: UNLIMITED,
        RATE_LIMIT_SCAN_DETAIL: UNLIMITED,
      },
      domains: { SAMPLE_DOMAINS_PER_MINUTE: '100000', EMAIL_VERIFY_RATE_LIMIT: '1000000' },
    },
  });
  project.provide('baseUrl', stack.baseUrl);
  project.provide('databaseUrl', stack.database.url);
  project.provide('redisUrl', stack.redisUrl);
  return () => stack.stop();
}
