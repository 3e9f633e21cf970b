import type { Database } from '@sendwell/db';
import { createLogger, type App } from '@sendwell/server-kit';
import { createTestDb, deleteKeys, testRedisUrl, uniquePrefix, type TestDb } from '@sendwell/testing';
import { buildApp } from '../src/app.js';
import { createDeps, type Deps } from '../src/deps.js';
import { loadEnv } from '../src/env.js';
import { factory, type Factory } from './factory.js';

export const silentLogger = createLogger('intake-test', 'silent');
export const TEST_INTAKE_DOMAIN = 'reports.sendwell.test';

export interface Harness {
  app: App;
  deps: Deps;
  db: Database;
  testDb: TestDb;
  prefix: string;
  f: Factory;
  /** `Authorization` headers of a user (a real session row and a token signed with the service's secret). */
  auth(user: { id: number }): Promise<Record<string, string>>;
  close(): Promise<void>;
}

/** The real service on a database of its own and a Redis prefix of its own; tests start the servers and worker they need. */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const testDb = await createTestDb();
  const prefix = uniquePrefix('intake');
  const config = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: testDb.url,
    DATABASE_POOL_MAX: '4',
    REDIS_URL: testRedisUrl(),
    QUEUE_PREFIX: prefix,
    INTAKE_DOMAIN: TEST_INTAKE_DOMAIN,
    INTAKE_PUBLIC_URL: 'https://app.sendwell.test',
    INTAKE_SMTP_PORT: '0',
    ALLOW_LOOPBACK_TARGETS: 'true',
    ...env,
  });
  const deps = createDeps(config, silentLogger);
  const app = await buildApp(deps);
  await app.ready();
  const f = factory(testDb.db);
  return {
    app,
    deps,
    db: testDb.db,
    testDb,
    prefix,
    f,
    async auth(user) {
      const sid = await f.session(user.id);
      return { authorization: `Bearer ${app.jwt.sign({ sub: String(user.id), sid })}` };
    },
    async close() {
      await app.close();
      await deps.close();
      await deleteKeys(prefix);
      await testDb.close();
    },
  };
}
