import { randomUUID } from 'node:crypto';
import type { Database } from '@sendwell/db';
import { authPlugin, closeRedis, createApp, createLogger, createQueues, createRedis, sessionCookie, type App, type Queues } from '@sendwell/server-kit';
import { createTestDb, deleteKeys, testRedisUrl, uniquePrefix, type TestDb } from '@sendwell/testing';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { EmailVerifier } from '../src/email-verify/email-verifier.js';
import { emailVerifierConfig, emailVerifyEnvFields } from '../src/email-verify/email-verify.env.js';
import { createDnsResolver } from '../src/email-verify/mail-hosts.js';
import { FixedWindowRepository } from '../src/shared/fixed-window.repository.js';
import { alertRoutes } from '../src/alerts/alerts.routes.js';
import { emailVerifyRoutes } from '../src/email-verify/email-verify.routes.js';
import { sampleDomainRoutes } from '../src/quick-check/sample-domains.routes.js';
import { AlertService } from '../src/alerts/alert.service.js';
import { EmailVerifyService } from '../src/email-verify/email-verify.service.js';
import { NotificationPreferencesService } from '../src/alerts/notification-preferences.service.js';
import { SampleDomainService, type SampleDomainServiceOptions } from '../src/quick-check/sample-domain.service.js';

/**
 * The alerts, quick-check and email-verification routes on a real database, Redis and queue, wired
 * exactly as deps.ts wires them but without the rest of the service, so these tests stand on their
 * own routes. Settings go through the same env fields env.ts takes.
 */
export const JWT_SECRET = 'tools-test-secret-at-least-32-characters-long';
export const silentLogger = createLogger('domains-tools-test', 'silent');

export interface ToolsHarness {
  app: App;
  db: Database;
  testDb: TestDb;
  prefix: string;
  queues: Queues;
  redis: Redis;
  factory: ReturnType<typeof factory>;
  /** Bearer headers for a user with a live session. */
  login(user: { id: number }): Promise<{ authorization: string }>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  env?: Record<string, string>;
  sampleDomains?: Partial<SampleDomainServiceOptions>;
  /** Share one database between harnesses (several verifier settings in one file). */
  testDb?: TestDb;
  prefix?: string;
  /** What the quick check queues its scans on; the real queues unless a test injects a failure. */
  sampleScanQueue?: Pick<Queues, 'add'>;
}

export async function startToolsHarness(options: HarnessOptions = {}): Promise<ToolsHarness> {
  const ownDb = !options.testDb;
  const testDb = options.testDb ?? (await createTestDb());
  const prefix = options.prefix ?? uniquePrefix('domains-tools');
  const settings = z.object(emailVerifyEnvFields).parse({ EMAIL_VERIFY_SMTP_TIMEOUT_MS: '2000', DNS_TIMEOUT_MS: '500', ...options.env });
  // The test kit lets the guard through to loopback only: the fixture SMTP servers listen there.
  const config = emailVerifierConfig({ ...settings, ALLOW_LOOPBACK_TARGETS: true });

  const redis = createRedis(testRedisUrl(), 'producer');
  // The producer connection has no offline queue: a command before it is ready fails (a 503 in production).
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  const queues = createQueues(redis, prefix, silentLogger);
  const verifier = new EmailVerifier(createDnsResolver(config.dns), config.verifier, silentLogger);
  const deps = {
    services: {
      alerts: new AlertService(testDb.db),
      preferences: new NotificationPreferencesService(testDb.db),
      sampleDomains: new SampleDomainService(testDb.db, options.sampleScanQueue ?? queues, new FixedWindowRepository(redis, prefix), silentLogger, {
        newPerMinute: 60,
        ...options.sampleDomains,
      }),
      emailVerify: new EmailVerifyService(verifier, new FixedWindowRepository(redis, prefix), config.rateLimit),
    },
  };

  const app = createApp({ logger: silentLogger });
  await app.register(authPlugin, { secret: JWT_SECRET, db: testDb.db, cookie: sessionCookie({ NODE_ENV: 'test' }), adminEmail: undefined });
  await app.register(alertRoutes, { deps });
  await app.register(sampleDomainRoutes, { deps });
  await app.register(emailVerifyRoutes, { deps });
  await app.ready();

  return {
    app,
    db: testDb.db,
    testDb,
    prefix,
    queues,
    redis,
    factory: factory(testDb.db),
    async login(user) {
      const session = await testDb.db
        .insertInto('sessions')
        .values({ userId: user.id, expires: new Date(Date.now() + 3_600_000) })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { authorization: `Bearer ${app.jwt.sign({ sub: String(user.id), sid: session.id })}` };
    },
    async close() {
      await app.close();
      await queues.close();
      await closeRedis(redis);
      if (!options.prefix) await deleteKeys(prefix);
      if (ownDb) await testDb.close();
    },
  };
}

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter += 1)}${randomUUID().slice(0, 4)}`;

/**
 * Users, domains and alerts as rows. Alerts are arranged data here (the scanner raises them from
 * scans, tested in the scanner); nothing here pretends a scan happened.
 */
export function factory(db: Database) {
  return {
    async user(planType = 'advanced') {
      const id = unique();
      return db
        .insertInto('users')
        .values({ username: `u_${id}`, email: `u${id}@example.com`, passwordHash: 'not-a-real-hash', planType })
        .returning(['id', 'planType'])
        .executeTakeFirstOrThrow();
    },
    async domain(userId: number, overrides: { name?: string; isDeleted?: boolean } = {}) {
      return db
        .insertInto('domains')
        .values({
          userId,
          name: overrides.name ?? `d${unique()}.example`,
          isDeleted: overrides.isDeleted ?? false,
          deletedAt: overrides.isDeleted ? new Date() : null,
        })
        .returning(['id', 'name'])
        .executeTakeFirstOrThrow();
    },
    async alert(domain: { id: number }, userId: number, overrides: { createdAt?: Date; isRead?: boolean; severity?: string; title?: string } = {}) {
      return db
        .insertInto('domainAlerts')
        .values({
          domainId: domain.id,
          userId,
          type: 'ssl_expiring',
          severity: overrides.severity ?? 'high',
          title: overrides.title ?? 'SSL certificate expires soon',
          message: 'The certificate expires in 10 days.',
          details: JSON.stringify({ daysLeft: 10 }),
          isRead: overrides.isRead ?? false,
          createdAt: overrides.createdAt ?? new Date(),
        })
        .returning(['id'])
        .executeTakeFirstOrThrow();
    },
  };
}
