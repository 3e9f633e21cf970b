import { API_ROUTES } from '@sendwell/contracts';
import { createLogger } from '@sendwell/server-kit';
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { buildApp as buildAuthApp } from '@sendwell/auth/src/app.js';
import { createDeps as createAuthDeps } from '@sendwell/auth/src/deps.js';
import { loadEnv as loadAuthEnv } from '@sendwell/auth/src/env.js';
import { buildApp as buildBillingApp } from '@sendwell/billing/src/app.js';
import { createDeps as createBillingDeps } from '@sendwell/billing/src/deps.js';
import { loadEnv as loadBillingEnv } from '@sendwell/billing/src/env.js';
import { buildApp as buildDomainsApp } from '@sendwell/domains/src/app.js';
import { createDeps as createDomainsDeps } from '@sendwell/domains/src/deps.js';
import { loadEnv as loadDomainsEnv } from '@sendwell/domains/src/env.js';
import { buildApp as buildIntakeApp } from '@sendwell/intake/src/app.js';
import { createDeps as createIntakeDeps } from '@sendwell/intake/src/deps.js';
import { loadEnv as loadIntakeEnv } from '@sendwell/intake/src/env.js';
import { buildApp as buildReportsApp } from '@sendwell/reports/src/app.js';
import { createDeps as createReportsDeps } from '@sendwell/reports/src/deps.js';
import { loadEnv as loadReportsEnv } from '@sendwell/reports/src/env.js';

/**
 * Reads Fastify's route tree (`printRoutes({ commonPrefix: false })`): each line is a path segment,
 * indented four characters per level under its parent, with its methods in parentheses.
 */
export function routesOf(tree: string): string[] {
  const found = new Set<string>();
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([^)]+)\))?/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    const path = stack.join('').replace(/(.)\/$/, '$1');
    for (const method of match[3]?.split(', ') ?? []) if (method !== 'HEAD') found.add(`${method} ${path}`);
  }
  return [...found];
}

const SERVICES = ['auth', 'domains', 'billing', 'reports', 'intake'] as const;

/** What the services serve under /api, from their real route tables (built in this process, never listening). */
async function servedRoutes(): Promise<Record<(typeof SERVICES)[number], string[]>> {
  const settings = { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: inject('databaseUrl'), REDIS_URL: inject('redisUrl'), MAINTENANCE_WORKER: 'false', REPORT_WORKER: 'false', INTAKE_WORKER: 'false' };
  const logger = createLogger('api-fuzz', 'silent');
  const auth = createAuthDeps(loadAuthEnv(settings), logger);
  const domains = createDomainsDeps(loadDomainsEnv(settings), logger);
  const billing = createBillingDeps(loadBillingEnv(settings), logger);
  const reports = createReportsDeps(loadReportsEnv(settings), logger);
  const intake = createIntakeDeps(loadIntakeEnv(settings), logger);
  try {
    const apps = {
      auth: await buildAuthApp(auth),
      domains: await buildDomainsApp(domains),
      billing: await buildBillingApp(billing),
      reports: await buildReportsApp(reports),
      intake: await buildIntakeApp(intake),
    };
    const served = Object.fromEntries(
      await Promise.all(
        SERVICES.map(async (service) => {
          await apps[service].ready();
          const routes = routesOf(apps[service].printRoutes({ commonPrefix: false })).filter((r) => r.includes(' /api/'));
          await apps[service].close();
          return [service, routes] as const;
        }),
      ),
    );
    return served as Record<(typeof SERVICES)[number], string[]>;
  } finally {
    await Promise.all([auth.close(), domains.close(), billing.close(), reports.close(), intake.close()]);
  }
}

describe('the route catalogue the fuzz test covers', () => {
  it('reads a Fastify route tree into method and full path', () => {
    const tree = ['└── /api/domains (GET, HEAD, POST)', '    └── / (GET, HEAD)', '        ├── deleted (GET, HEAD)', '        └── :id (GET, DELETE)', '            └── /scan (POST)', '                └── s/:scanId (GET)'].join('\n');
    expect(routesOf(tree).sort()).toEqual(['DELETE /api/domains/:id', 'GET /api/domains', 'GET /api/domains/:id', 'GET /api/domains/:id/scans/:scanId', 'GET /api/domains/deleted', 'POST /api/domains', 'POST /api/domains/:id/scan'].sort());
  });

  it('lists every /api route the services serve, and only those (API_ROUTES in the contracts)', async () => {
    const served = await servedRoutes();
    for (const service of SERVICES) {
      const catalogued = API_ROUTES.filter((r) => r.service === service).map((r) => `${r.method} ${r.path}`);
      expect({ service, routes: served[service].sort() }).toEqual({ service, routes: catalogued.sort() });
    }
  });
});
