import { gzipSync } from 'node:zlib';
import { AlertType, JobName, QueueName, type SenderRequirements } from '@sendwell/contracts';
import { sql } from '@sendwell/db';
import { queueSenderRequirementsRefresh } from '@sendwell/scan-engine';
import { assertHandlersComplete } from '@sendwell/server-kit';
import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readIntakeMessage } from '../src/reading/read-intake-message.js';
import { SenderRequirementsService } from '../src/sender-requirements/sender-requirements.service.js';
import { intakeHandlers } from '../src/workers/intake.handlers.js';
import { silentLogger, startHarness, type Harness } from './fixtures.js';
import { aggregateXml, dayPeriod, daysAgo, manyRecords } from './fixtures/reports/aggregate.js';
import { reportMessage } from './fixtures/reports/mail.js';
import { GOOD_CHECKS, insertScan } from './sender-requirements-fixtures.js';

/** The judgement's clock: scans are made an hour or more before it. */
const NOW = new Date('2026-03-10T12:00:00Z');
const HOUR_MS = 3_600_000;
const at = (hours: number) => new Date(NOW.getTime() + hours * HOUR_MS);

let h: Harness;
let service: SenderRequirementsService;
beforeAll(async () => {
  h = await startHarness();
  service = new SenderRequirementsService(h.deps);
});
afterAll(async () => {
  await h?.close();
});

async function domainOn(plan = 'standard', opts: { deleted?: boolean } = {}) {
  const user = await h.f.user(plan);
  return h.f.domain({ userId: user.id, ...opts });
}

const alertsOf = (domainId: number) =>
  h.db.selectFrom('domainAlerts').select(['id', 'type', 'severity', 'title', 'message', 'details', 'conditionKey', 'resolvedAt']).where('domainId', '=', domainId).orderBy('id').execute();

async function notifyEvents(alertIds: number[]): Promise<Array<{ alertId: number; event: string }>> {
  const jobs = await h.deps.queues.notify.getJobs(['waiting', 'delayed', 'prioritized']);
  return jobs.map((j) => j.data as { alertId: number; event: string }).filter((e) => alertIds.includes(e.alertId));
}

async function keptVerdict(domainId: number): Promise<SenderRequirements | null> {
  const row = await h.db.selectFrom('senderRequirementVerdicts').select(sql<string>`verdict::text`.as('verdict')).where('domainId', '=', domainId).executeTakeFirst();
  return row ? (JSON.parse(row.verdict) as SenderRequirements) : null;
}

const statusOf = (verdict: SenderRequirements | null, id: string) => verdict?.requirements.find((r) => r.id === id)?.status;

async function refreshJobs(domainId: number): Promise<Job[]> {
  const jobs = await h.deps.queues.intake.getJobs(['waiting', 'delayed', 'prioritized']);
  return jobs.filter((j) => j.name === JobName.RefreshSenderRequirements && (j.data as { domainId: number }).domainId === domainId);
}

describe('refresh: the sender_requirement_unmet alert', () => {
  it('is raised once when a met requirement turns unmet, not again while open, and resolved when it is met again', async () => {
    const domain = await domainOn('standard');
    await insertScan(h.db, domain.id, GOOD_CHECKS, at(-10));
    expect(await service.refresh(domain.id, at(-9))).toEqual({ state: 'judged', raised: 0, resolved: 0 });
    expect(statusOf(await keptVerdict(domain.id), 'spf')).toBe('met');

    // The SPF record is gone at the next scan.
    await insertScan(h.db, domain.id, { ...GOOD_CHECKS, spf: { status: 'missing', record: null } }, at(-5));
    expect(await service.refresh(domain.id, at(-4))).toEqual({ state: 'judged', raised: 1, resolved: 0 });
    const raised = await alertsOf(domain.id);
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({
      type: AlertType.SenderRequirementUnmet,
      severity: 'high',
      conditionKey: 'sender_requirement_unmet:spf',
      title: `${domain.name} no longer meets the SPF sender requirement`,
      resolvedAt: null,
      details: { requirement: 'spf', evidence: [{ source: 'dns', status: 'unmet', detail: `${domain.name} publishes no SPF record.` }] },
    });
    expect(raised[0]?.message).toContain(`${domain.name} met the SPF requirement of Gmail, Yahoo and Microsoft (Outlook.com) and no longer does. ${domain.name} publishes no SPF record.`);
    expect(statusOf(await keptVerdict(domain.id), 'spf')).toBe('unmet');

    // Still unmet, and even met → unmet again from an older kept verdict: never a second open alert.
    expect(await service.refresh(domain.id, at(-3))).toEqual({ state: 'judged', raised: 0, resolved: 0 });
    await sql`update sender_requirement_verdicts set verdict = jsonb_set(verdict, '{requirements,0,status}', '"met"') where domain_id = ${domain.id}`.execute(h.db);
    expect(await service.refresh(domain.id, at(-2))).toEqual({ state: 'judged', raised: 0, resolved: 0 });
    expect(await alertsOf(domain.id)).toHaveLength(1);

    // Published again: resolved.
    await insertScan(h.db, domain.id, GOOD_CHECKS, at(-1));
    expect(await service.refresh(domain.id, NOW)).toEqual({ state: 'judged', raised: 0, resolved: 1 });
    const [resolved] = await alertsOf(domain.id);
    expect(resolved?.resolvedAt?.toISOString()).toBe(NOW.toISOString());
    expect(await notifyEvents([resolved!.id])).toEqual(
      expect.arrayContaining([
        { alertId: resolved!.id, event: 'raised' },
        { alertId: resolved!.id, event: 'resolved' },
      ]),
    );
  });

  it('raises nothing on the first judgement, or when a requirement goes from unknown to unmet', async () => {
    const domain = await domainOn('basic');
    await insertScan(h.db, domain.id, { spf: { status: 'missing', record: null } }, at(-10));
    expect(await service.refresh(domain.id, at(-9))).toEqual({ state: 'judged', raised: 0, resolved: 0 });
    await insertScan(h.db, domain.id, { spf: { status: 'missing', record: null }, dkim: { status: 'missing', selectors: [] } }, at(-5));
    expect(await service.refresh(domain.id, at(-4))).toEqual({ state: 'judged', raised: 0, resolved: 0 });
    expect(await alertsOf(domain.id)).toEqual([]);
  });

  it('judges a reading of the verdict the same way: the GET raises the alert the job would have', async () => {
    const user = await h.f.user('advanced');
    const domain = await h.f.domain({ userId: user.id });
    const headers = await h.auth(user);
    await insertScan(h.db, domain.id, GOOD_CHECKS, new Date(Date.now() - 10 * HOUR_MS));
    expect((await h.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/sender-requirements`, headers })).statusCode).toBe(200);
    await insertScan(h.db, domain.id, { ...GOOD_CHECKS, dmarc: { status: 'missing', record: null, policy: null } }, new Date(Date.now() - 5 * HOUR_MS));
    const res = await h.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/sender-requirements`, headers });
    expect(statusOf(res.json<SenderRequirements>(), 'dmarc')).toBe('unmet');
    expect((await alertsOf(domain.id)).map((a) => a.conditionKey)).toEqual(['sender_requirement_unmet:dmarc']);
  });

  it('does nothing for a free-plan domain, a deleted one or one that does not exist', async () => {
    const free = await domainOn('free');
    const deleted = await domainOn('standard', { deleted: true });
    await insertScan(h.db, free.id, GOOD_CHECKS, at(-1));
    await insertScan(h.db, deleted.id, GOOD_CHECKS, at(-1));
    for (const id of [free.id, deleted.id, 2_000_000_000]) expect(await service.refresh(id, NOW)).toEqual({ state: 'skipped' });
    expect(await keptVerdict(free.id)).toBeNull();
    expect(await keptVerdict(deleted.id)).toBeNull();
  });
});

describe('the refresh-sender-requirements job', () => {
  it('has a handler (the worker refuses to start without one) that judges the queued domain', async () => {
    const handlers = intakeHandlers(h.deps);
    expect(() => assertHandlersComplete(QueueName.Intake, handlers)).not.toThrow();

    const domain = await domainOn('standard');
    await insertScan(h.db, domain.id, GOOD_CHECKS, at(-1));
    await queueSenderRequirementsRefresh(h.deps.queues, domain.id, silentLogger);
    // One waiting per domain: a second request while it waits adds nothing.
    await queueSenderRequirementsRefresh(h.deps.queues, domain.id, silentLogger);
    const [job, ...more] = await refreshJobs(domain.id);
    expect(more).toEqual([]);
    expect(job?.data).toEqual({ domainId: domain.id });

    expect(await handlers[JobName.RefreshSenderRequirements](job!.data as { domainId: number }, job!, silentLogger)).toEqual({ state: 'judged', raised: 0, resolved: 0 });
    expect(statusOf(await keptVerdict(domain.id), 'spf')).toBe('met');
  });

  it('is queued when a stored aggregate report is read', async () => {
    const domain = await domainOn('basic');
    const xml = aggregateXml({ domain: domain.name, reportId: 'sr-1', ...dayPeriod(daysAgo(1)), records: manyRecords(3) });
    const raw = reportMessage([{ type: 'application/gzip', name: 'sr-1.xml.gz', bytes: gzipSync(xml) }]);
    const id = await h.deps.messages.store({ domainId: domain.id, channel: 'smtp', envelope: {}, contentType: null, raw });
    expect(await refreshJobs(domain.id)).toEqual([]);
    expect(await readIntakeMessage(h.deps, id, { lastAttempt: false })).toMatchObject({ state: 'read' });
    const jobs = await refreshJobs(domain.id);
    expect(jobs.map((j) => j.data)).toEqual([{ domainId: domain.id }]);
  });

  it('is queued when an aggregate report is uploaded by hand', async () => {
    const user = await h.f.user('basic');
    const domain = await h.f.domain({ userId: user.id });
    const xml = aggregateXml({ domain: domain.name, reportId: 'sr-up', ...dayPeriod(daysAgo(1)), records: manyRecords(2) });
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/domains/${domain.id}/dmarc-reports`,
      headers: { ...(await h.auth(user)), 'content-type': 'application/xml' },
      payload: xml,
    });
    expect(res.statusCode).toBe(202);
    expect((await refreshJobs(domain.id)).map((j) => j.data)).toEqual([{ domainId: domain.id }]);
  });

  it('is not queued for a message whose reports were refused', async () => {
    const domain = await domainOn('basic');
    const xml = aggregateXml({ domain: 'someone-else.example', reportId: 'sr-2', ...dayPeriod(daysAgo(1)), records: manyRecords(3) });
    const raw = reportMessage([{ type: 'application/gzip', name: 'sr-2.xml.gz', bytes: gzipSync(xml) }]);
    const id = await h.deps.messages.store({ domainId: domain.id, channel: 'smtp', envelope: {}, contentType: null, raw });
    expect(await readIntakeMessage(h.deps, id, { lastAttempt: false })).toMatchObject({ state: 'refused' });
    expect(await refreshJobs(domain.id)).toEqual([]);
  });
});
