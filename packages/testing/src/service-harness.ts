import type { Database } from '@sendwell/db';
import { createTestDb, type TestDb } from './postgres.js';
import { deleteKeys, testRedisUrl, uniquePrefix } from './redis.js';

/** The parts of a service's Fastify app the harness uses (server-kit's App has them). */
export interface HarnessApp {
  ready(): PromiseLike<unknown>;
  close(): PromiseLike<unknown>;
  jwt: { sign(payload: { sub: string; sid: string }): string };
}

export interface ServiceHarnessSpec<E, D extends { close(): Promise<void> }, A extends HarnessApp, F extends { session(userId: number): Promise<string> }> {
  /** Names this file's Redis prefix. */
  service: string;
  loadEnv(source: Record<string, string>): E;
  createDeps(env: E): D;
  buildApp(deps: D): Promise<A>;
  /** The service's test data factory, on the file's database. */
  factory(db: Database): F;
  /** Settings the service needs in every test, below the common ones and above nothing. */
  env?: Record<string, string>;
}

export interface ServiceHarness<D, A, F> {
  app: A;
  deps: D;
  /** The test file's own database, for arranging and checking rows directly. */
  db: Database;
  testDb: TestDb;
  /** This file's BullMQ prefix on the shared Redis. */
  prefix: string;
  f: F;
  /** `Authorization` headers of a user (a real session row and a token signed with the service's secret). */
  auth(user: { id: number }): Promise<Record<string, string>>;
  close(): Promise<void>;
}

/**
 * The real service in the test's process, on a database and a Redis prefix of its own, ready for
 * `app.inject()`; workers and listeners are started by the tests that need them. `env` wins over the
 * spec's settings, which win over the common ones.
 */
export async function startServiceHarness<E, D extends { close(): Promise<void> }, A extends HarnessApp, F extends { session(userId: number): Promise<string> }>(
  spec: ServiceHarnessSpec<E, D, A, F>,
  env: Record<string, string> = {},
): Promise<ServiceHarness<D, A, F>> {
  const testDb = await createTestDb();
  const prefix = uniquePrefix(spec.service);
  const config = spec.loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: testDb.url,
    DATABASE_POOL_MAX: '4',
    REDIS_URL: testRedisUrl(),
    QUEUE_PREFIX: prefix,
    ALLOW_LOOPBACK_TARGETS: 'true',
    ...spec.env,
    ...env,
  });
  const deps = spec.createDeps(config);
  const app = await spec.buildApp(deps);
  await app.ready();
  const f = spec.factory(testDb.db);
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
