import { JobName, QueueName } from '@sendwell/contracts';
import { sql } from '@sendwell/db';
import type { Worker } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertHandlersComplete, createMaintenanceWorker, PURGE_PATTERN, PURGE_SCHEDULER_ID } from '../src/workers/maintenance.worker.js';
import { startHarness, type Harness } from './fixtures.js';

let h: Harness;
const workers: Worker[] = [];
beforeAll(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.close()));
});
afterAll(() => h.close());

async function waitForJob(id: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const job = await h.deps.queues.maintenance.getJob(id);
    const state = job ? await job.getState() : 'missing';
    if (state === 'completed' || state === 'failed') return { job: job!, state };
    if (Date.now() > deadline) throw new Error(`job ${id} still ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const count = async (table: 'domains' | 'scans' | 'domainChecks' | 'domainReputationHistory' | 'domainAlerts', domainId: number) => {
  const column = table === 'domains' ? 'id' : 'domainId';
  const row = await h.db.selectFrom(table).select(sql<number>`count(*)::int`.as('n')).where(column, '=', domainId).executeTakeFirstOrThrow();
  return row.n;
};

describe('the maintenance worker', () => {
  it('registers the daily purge at 03:00 UTC (idempotent across boots)', async () => {
    workers.push((await h.deps.startMaintenance())!);
    await h.deps.startMaintenance().then((w) => w && workers.push(w));
    const schedulers = await h.deps.queues.maintenance.getJobSchedulers();
    expect(schedulers).toHaveLength(1);
    expect(schedulers[0]).toMatchObject({ key: PURGE_SCHEDULER_ID, pattern: PURGE_PATTERN, tz: 'UTC', name: JobName.PurgeDeletedDomains });
  });

  it('purges only deletions older than 90 days, with their scans, checks, reputation and alerts', async () => {
    const user = await h.f.user('advanced');
    const expired = await h.f.domain({ userId: user.id, deletedDaysAgo: 91 });
    const recent = await h.f.domain({ userId: user.id, deletedDaysAgo: 89 });
    const active = await h.f.domain({ userId: user.id });
    for (const d of [expired, recent, active]) {
      await h.f.completedScan(d.id);
      await h.f.reputation(d.id, 75);
      await h.db.insertInto('domainAlerts').values({ domainId: d.id, userId: user.id, type: 'dns_change', severity: 'low', title: 't', message: 'm' }).execute();
    }
    const report = await h.db
      .insertInto('reports')
      .values({ userId: user.id, domainId: expired.id, type: 'full', data: JSON.stringify({ domainName: expired.name }) })
      .returning('id')
      .executeTakeFirstOrThrow();

    workers.push((await h.deps.startMaintenance())!);
    const job = await h.deps.queues.add(JobName.PurgeDeletedDomains, {}, { jobId: 'purge-now' });
    const { state, job: done } = await waitForJob(job.id!);
    expect(state).toBe('completed');
    expect(done.returnvalue).toEqual({ purged: 1 });

    for (const table of ['domains', 'scans', 'domainChecks', 'domainReputationHistory', 'domainAlerts'] as const) {
      const each = table === 'domainChecks' ? 6 : 1;
      expect(await count(table, expired.id)).toBe(0);
      expect(await count(table, recent.id)).toBe(each);
      expect(await count(table, active.id)).toBe(each);
    }
    const kept = await h.db.selectFrom('reports').select(['domainId', 'data']).where('id', '=', report.id).executeTakeFirstOrThrow();
    expect(kept).toEqual({ domainId: null, data: { domainName: expired.name } });
  });

  it('fails a job it does not own without retrying, and ignores a malformed sign-up payload the same way', async () => {
    workers.push((await h.deps.startMaintenance())!);
    const unknown = await h.deps.queues[QueueName.Maintenance].add('something-else', {}, { jobId: 'unknown-job', attempts: 3 });
    const malformed = await h.deps.queues[QueueName.Maintenance].add(JobName.ProvisionSignupDomain, { userId: 1, domain: 'not a domain' }, { jobId: 'bad-signup', attempts: 3 });
    for (const id of [unknown.id!, malformed.id!]) {
      const { state, job } = await waitForJob(id);
      expect(state).toBe('failed');
      expect(job.attemptsMade).toBe(1);
    }
  });

  it('refuses to start with a handler missing', () => {
    expect(() => assertHandlersComplete({ [JobName.PurgeDeletedDomains]: async () => undefined })).toThrow(/no handler for provision-signup-domain/);
    expect(() =>
      createMaintenanceWorker({
        connection: h.deps.redis,
        prefix: h.prefix,
        concurrency: 1,
        handlers: { [JobName.PurgeDeletedDomains]: async () => undefined } as never,
        logger: h.deps.logger,
        autorun: false,
      }),
    ).toThrow(/no handler/);
  });

  it('skips a sign-up domain over the plan limit and for a user who no longer exists', async () => {
    const user = await h.f.user('free');
    await h.f.domain({ userId: user.id, name: 'already.example.com' });
    expect(await h.deps.services.domains.provisionSignupDomain(user.id, 'second.example.com')).toEqual({ outcome: 'skipped', reason: 'plan-limit' });
    expect(await h.deps.services.domains.provisionSignupDomain(2_000_000_000, 'nobody.example.com')).toEqual({ outcome: 'skipped', reason: 'missing-user' });
  });
});
