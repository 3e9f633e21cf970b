import { checkTypes, JobName, QueueName } from '@sendwell/contracts';
import { sql } from '@sendwell/db';
import { assertHandlersComplete, createJobWorker } from '@sendwell/server-kit';
import type { Worker } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CleanUpService } from '../src/maintenance/clean-up.service.js';
import { VIEW_RECORD_INTERVAL_MS } from '../src/quick-check/sample-domain.service.js';
import { CLEAN_UP_PATTERN, CLEAN_UP_SCHEDULER_ID, HISTORY_PATTERN, HISTORY_SCHEDULER_ID, PURGE_PATTERN, PURGE_SCHEDULER_ID } from '../src/maintenance/maintenance.schedulers.js';
import { silentLogger, startHarness, type Harness } from './fixtures.js';

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
    // The state first, then the job: a job read before it finished keeps the fields it had then
    // (attemptsMade 0 for a failure that lands between the two reads).
    const state = await h.deps.queues.maintenance.getJobState(id);
    if (state === 'completed' || state === 'failed') return { job: (await h.deps.queues.maintenance.getJob(id))!, state };
    if (Date.now() > deadline) throw new Error(`job ${id} still ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const count = async (table: 'domains' | 'scans' | 'checkResults' | 'domainReputationHistory' | 'domainAlerts', domainId: number) => {
  const column = table === 'domains' ? 'id' : 'domainId';
  const row = await h.db.selectFrom(table).select(sql<number>`count(*)::int`.as('n')).where(column, '=', domainId).executeTakeFirstOrThrow();
  return row.n;
};

describe('the maintenance worker', () => {
  it('registers the daily purge at 03:00 UTC, the clean-up at 03:30 and the history at 03:45 (idempotent across boots)', async () => {
    workers.push((await h.deps.startMaintenance())!);
    await h.deps.startMaintenance().then((w) => w && workers.push(w));
    const schedulers = await h.deps.queues.maintenance.getJobSchedulers();
    expect(schedulers).toHaveLength(3);
    expect(schedulers.find((s) => s.key === HISTORY_SCHEDULER_ID)).toMatchObject({ pattern: HISTORY_PATTERN, tz: 'UTC', name: JobName.MaintainHistory });
    expect(schedulers.find((s) => s.key === PURGE_SCHEDULER_ID)).toMatchObject({ pattern: PURGE_PATTERN, tz: 'UTC', name: JobName.PurgeDeletedDomains });
    expect(schedulers.find((s) => s.key === CLEAN_UP_SCHEDULER_ID)).toMatchObject({ pattern: CLEAN_UP_PATTERN, tz: 'UTC', name: JobName.NightlyCleanUp });
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

    for (const table of ['domains', 'scans', 'checkResults', 'domainReputationHistory', 'domainAlerts'] as const) {
      const each = table === 'checkResults' ? checkTypes.length : 1;
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

  it('maintains the history partitions, and the statistics show them and the run', async () => {
    const before = await h.deps.services.systemStats.read();
    const month = new Date().toISOString().slice(0, 7);
    expect(before.history.months[0]).toBe(`${month}-01`);
    expect(before.history.keptDays).toBe(395);
    workers.push((await h.deps.startMaintenance())!);
    const job = await h.deps.queues.maintenance.add(JobName.MaintainHistory, {});
    const { state, job: done } = await waitForJob(job.id!);
    expect(state).toBe('completed');
    expect(done.returnvalue).toEqual({ created: [], dropped: [], carriedScans: 0, carriedScores: 0, dropMs: 0 });
    const after = await h.deps.services.systemStats.read();
    expect(after.history.months).toEqual(before.history.months);
    expect(after.history.lastRun).toMatchObject({ error: null, created: [], dropped: [] });
    expect(Date.now() - Date.parse(after.history.lastRun!.at)).toBeLessThan(60_000);
  });

  it('refuses to start with a handler missing', () => {
    expect(() => assertHandlersComplete(QueueName.Maintenance, { [JobName.PurgeDeletedDomains]: async () => undefined })).toThrow(/no handler for nightly-clean-up, maintain-history, provision-signup-domain/);
    expect(() =>
      createJobWorker({
        queue: QueueName.Maintenance,
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

describe('the nightly clean-up', () => {
  const ago = (ms: number) => new Date(Date.now() - ms);
  const ahead = (ms: number) => new Date(Date.now() + ms);
  const ids = async (table: 'sessions' | 'passwordResetTokens') => (await h.db.selectFrom(table).select('id').execute()).map((r) => r.id).sort();
  const sampleIds = async () => (await h.db.selectFrom('sampleDomains').select('id').orderBy('id').execute()).map((r) => r.id);
  const checkOwners = async () => (await h.db.selectFrom('sampleDomainChecks').select('sampleDomainId').orderBy('sampleDomainId').execute()).map((r) => r.sampleDomainId);
  const lastViewed = async (id: number) =>
    (await h.db.selectFrom('sampleDomains').select('lastViewedAt').where('id', '=', id).executeTakeFirstOrThrow()).lastViewedAt;

  afterEach(async () => {
    await h.db.deleteFrom('sessions').execute();
    await h.db.deleteFrom('passwordResetTokens').execute();
    await h.db.deleteFrom('sampleDomains').execute();
  });

  it('deletes spent sessions and reset tokens and sample domains not viewed for 30 days (with their checks), keeping the rest', async () => {
    const user = await h.f.user();
    const liveSession = await h.f.session(user.id);
    await h.f.session(user.id, { expires: ago(60_000) });
    await h.f.session(user.id, { revokedAt: ago(60_000) });
    await h.f.session(user.id, { expires: ago(60_000), revokedAt: ago(120_000) });
    const validToken = await h.f.resetToken(user.id);
    await h.f.resetToken(user.id, { usedAt: ago(60_000) });
    await h.f.resetToken(user.id, { expiresAt: ago(60_000) });
    await h.f.sampleDomain({ viewedDaysAgo: 31 });
    await h.f.sampleDomain({ viewedDaysAgo: 400 });
    const viewed = await h.f.sampleDomain({ viewedDaysAgo: 29 });
    // Created long ago but looked at yesterday: the view counts, not the age.
    const oldButViewed = await h.f.sampleDomain({ viewedDaysAgo: 1 });
    await h.db.updateTable('sampleDomains').set({ createdAt: ago(90 * 86_400_000), updatedAt: ago(90 * 86_400_000) }).where('id', '=', oldButViewed.id).execute();

    workers.push((await h.deps.startMaintenance())!);
    const job = await h.deps.queues.add(JobName.NightlyCleanUp, {}, { jobId: 'clean-up-now' });
    const { state, job: done } = await waitForJob(job.id!);
    expect(state).toBe('completed');
    expect(done.returnvalue).toEqual({ sessions: 3, passwordResetTokens: 2, sampleDomains: 2 });

    expect(await ids('sessions')).toEqual([liveSession]);
    expect(await ids('passwordResetTokens')).toEqual([validToken]);
    expect(await sampleIds()).toEqual([viewed.id, oldButViewed.id]);
    expect(await checkOwners()).toEqual([viewed.id, oldButViewed.id]);
  });

  it('deletes a backlog larger than one batch', async () => {
    const user = await h.f.user();
    for (let i = 0; i < 5; i += 1) {
      await h.f.session(user.id, { expires: ago(60_000) });
      await h.f.resetToken(user.id, { usedAt: ago(60_000), expiresAt: ahead(60_000) });
      await h.f.sampleDomain({ viewedDaysAgo: 31 + i });
    }
    const kept = await h.f.sampleDomain({ viewedDaysAgo: 0 });
    expect(await new CleanUpService(h.db, silentLogger, 2).run()).toEqual({ sessions: 5, passwordResetTokens: 5, sampleDomains: 5 });
    expect(await ids('sessions')).toEqual([]);
    expect(await ids('passwordResetTokens')).toEqual([]);
    expect(await sampleIds()).toEqual([kept.id]);
  });

  it('a quick-check view marks the sample domain viewed (at most hourly), which keeps it from the clean-up', async () => {
    const stale = await h.f.sampleDomain({ viewedDaysAgo: 40 });
    const res = await h.app.inject({ method: 'GET', url: `/api/sample-domains/${stale.name}` });
    expect(res.statusCode).toBe(200);
    expect(Date.now() - (await lastViewed(stale.id)).getTime()).toBeLessThan(60_000);

    // Viewed a few minutes ago: no write for this view.
    const recently = ago(VIEW_RECORD_INTERVAL_MS / 4);
    await h.db.updateTable('sampleDomains').set({ lastViewedAt: recently }).where('id', '=', stale.id).execute();
    await h.app.inject({ method: 'GET', url: `/api/sample-domains/${stale.name}` });
    expect((await lastViewed(stale.id)).getTime()).toBe(recently.getTime());

    expect(await new CleanUpService(h.db, silentLogger).run()).toMatchObject({ sampleDomains: 0 });
    expect(await sampleIds()).toEqual([stale.id]);
  });
});
