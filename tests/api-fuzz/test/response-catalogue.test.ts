import { API_RESPONSES, API_ROUTES } from '@sendwell/contracts';
import { createLogger, type App } from '@sendwell/server-kit';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp as buildAuthApp } from '@sendwell/auth/src/app.js';
import { createDeps as createAuthDeps } from '@sendwell/auth/src/deps.js';
import { loadEnv as loadAuthEnv } from '@sendwell/auth/src/env.js';
import { buildApp as buildDomainsApp } from '@sendwell/domains/src/app.js';
import { createDeps as createDomainsDeps } from '@sendwell/domains/src/deps.js';
import { loadEnv as loadDomainsEnv } from '@sendwell/domains/src/env.js';
import { buildApp as buildIntakeApp } from '@sendwell/intake/src/app.js';
import { createDeps as createIntakeDeps } from '@sendwell/intake/src/deps.js';
import { loadEnv as loadIntakeEnv } from '@sendwell/intake/src/env.js';
import { buildApp as buildReportsApp } from '@sendwell/reports/src/app.js';
import { createDeps as createReportsDeps } from '@sendwell/reports/src/deps.js';
import { loadEnv as loadReportsEnv } from '@sendwell/reports/src/env.js';

/** `schema.response` of the route each request reached, keyed `METHOD path` as API_ROUTES writes it. */
const declared = new Map<string, Record<string, unknown>>();

/**
 * Notes the response schemas of the route each request reached, whoever answered it: requests
 * carry no session or input, so they stop at authentication or validation and change nothing.
 */
function recordResponseSchemas(app: App): void {
  app.addHook('onResponse', async (request) => {
    declared.set(`${request.method} ${request.routeOptions.url}`, (request.routeOptions.schema?.response ?? {}) as Record<string, unknown>);
  });
}

const settings = { NODE_ENV: 'test', LOG_LEVEL: 'silent', MAINTENANCE_WORKER: 'false', REPORT_WORKER: 'false', INTAKE_WORKER: 'false' };
const logger = createLogger('api-fuzz', 'silent');
let close: () => Promise<void>;
let apps: Record<'auth' | 'domains' | 'reports' | 'intake', App>;

beforeAll(async () => {
  const env = { ...settings, DATABASE_URL: inject('databaseUrl'), REDIS_URL: inject('redisUrl') };
  const authDeps = createAuthDeps(loadAuthEnv(env), logger);
  const domainsDeps = createDomainsDeps(loadDomainsEnv(env), logger);
  const reportsDeps = createReportsDeps(loadReportsEnv(env), logger);
  const intakeDeps = createIntakeDeps(loadIntakeEnv(env), logger);
  apps = { auth: await buildAuthApp(authDeps), domains: await buildDomainsApp(domainsDeps), reports: await buildReportsApp(reportsDeps), intake: await buildIntakeApp(intakeDeps) };
  for (const app of Object.values(apps)) recordResponseSchemas(app);
  await Promise.all(Object.values(apps).map((app) => app.ready()));
  close = async () => {
    await Promise.all(Object.values(apps).map((app) => app.close()));
    await Promise.all([authDeps.close(), domainsDeps.close(), reportsDeps.close(), intakeDeps.close()]);
  };
});

afterAll(async () => {
  await close?.();
});

describe('the answers the OpenAPI document describes (API_RESPONSES in the contracts)', () => {
  it('are the very schemas each serving route declares in schema.response', async () => {
    for (const route of API_ROUTES) {
      if (route.service === 'billing') continue;
      const key = `${route.method} ${route.path}`;
      await apps[route.service].inject({ method: route.method, url: route.path.replace(/:\w+/g, '1') });
      const served = declared.get(key);
      expect(served, `${key} reached its route`).toBeDefined();
      const described = API_RESPONSES[key] ?? {};
      expect({ key, statuses: Object.keys(served ?? {}).sort() }).toEqual({ key, statuses: Object.keys(described).sort() });
      for (const [status, schema] of Object.entries(described)) expect(served?.[status], `${key} ${status}`).toBe(schema);
    }
  });
});
