import { randomBytes } from 'node:crypto';
import { SystemCounter } from '@sendwell/server-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailFlowAlerts } from '../src/alerts/mail-flow-alerts.js';
import { ensureMonthPartitions } from '../src/storage/partitions.js';
import { silentLogger, startHarness, type Harness } from './fixtures.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The run's clock: reports "just received" arrive an hour before it. */
const NOW = new Date('2026-03-10T12:00:00Z');
const D = '2026-03-10';
const dayOffset = (days: number, from = D) => new Date(Date.parse(`${from}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

let h: Harness;
let alerts: MailFlowAlerts;

beforeAll(async () => {
  h = await startHarness();
  // The months the fixtures' days fall in, for the three tables, as an ingest makes them.
  await ensureMonthPartitions(h.db, ['2026-01-01', '2026-02-01', '2026-03-01']);
  alerts = new MailFlowAlerts(h.db, h.deps.queues, silentLogger, h.deps.counters);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

async function domainOn(plan = 'standard') {
  const user = await h.f.user(plan);
  return h.f.domain({ userId: user.id });
}

/** A report covering one UTC day, received at `receivedAt`. */
async function report(domainId: number, day: string, receivedAt: Date, kind: 'aggregate' | 'tls' = 'aggregate') {
  await h.db
    .insertInto('mailReports')
    .values({
      domainId,
      kind,
      orgName: 'google.com',
      reportId: randomBytes(6).toString('hex'),
      periodBegin: new Date(`${day}T00:00:00Z`),
      periodEnd: new Date(Date.parse(`${day}T00:00:00Z`) + DAY),
      records: 1,
      messages: 1,
      channel: 'smtp',
      receivedAt,
    })
    .execute();
}

interface Rec {
  ip?: string;
  messages: number;
  aligned?: boolean;
  override?: string;
}

async function records(domainId: number, day: string, rows: Rec[]) {
  await h.db
    .insertInto('dmarcRecordsDaily')
    .values(
      rows.map((r) => ({
        day: new Date(`${day}T00:00:00Z`),
        domainId,
        key: randomBytes(20),
        sourceIp: r.ip ?? '192.0.2.1',
        headerFrom: 'example.test',
        envelopeFrom: 'example.test',
        spfDomain: 'example.test',
        spfResult: r.aligned === false ? 'fail' : 'pass',
        dkimDomain: 'example.test',
        dkimSelector: 's1',
        dkimResult: r.aligned === false ? 'fail' : 'pass',
        spfAligned: r.aligned !== false,
        dkimAligned: r.aligned !== false,
        disposition: 'none',
        override: r.override ?? '',
        messages: r.messages,
      })),
    )
    .execute();
}

async function tls(domainId: number, day: string, rows: Array<{ type: string; sessions: number; mx?: string }>) {
  await h.db
    .insertInto('tlsResultsDaily')
    .values(
      rows.map((r) => ({
        day: new Date(`${day}T00:00:00Z`),
        domainId,
        policyType: 'sts',
        policyDomain: 'example.test',
        mxHost: r.mx ?? 'mx1.example.test',
        resultType: r.type,
        sessions: r.sessions,
      })),
    )
    .execute();
}

async function source(ip: string, serviceId: string | null, host: string | null = null) {
  await h.db
    .insertInto('mailSources')
    .values({ ip, serviceId, host, namedAt: new Date() })
    .onConflict((oc) => oc.column('ip').doUpdateSet({ serviceId, host }))
    .execute();
}

const alertsOf = (domainId: number) =>
  h.db
    .selectFrom('domainAlerts')
    .select(['id', 'type', 'severity', 'title', 'message', 'details', 'conditionKey', 'resolvedAt', 'userId'])
    .where('domainId', '=', domainId)
    .orderBy('id')
    .execute();

async function notifyEvents(): Promise<Array<{ alertId: number; event: string }>> {
  const jobs = await h.deps.queues.notify.getJobs(['waiting', 'delayed', 'prioritized']);
  return jobs.map((j) => j.data as { alertId: number; event: string });
}

describe('mail_failure_spike', () => {
  it('is raised with its figures when failures reach 100, 3× the week and over 10% of the mail, once, and resolved by a later normal day', async () => {
    const spike = await domainOn();
    const few = await domainOn(); // 99 failures: under 100
    const steady = await domainOn(); // 150 failures against a week of 60: under 3×
    const diluted = await domainOn(); // 150 failures in 2,000 messages: 7.5%
    for (let i = 1; i <= 7; i++) {
      await records(spike.id, dayOffset(-i), [{ messages: 1000 }, { ip: '198.51.100.1', messages: 20, aligned: false }]);
      await records(steady.id, dayOffset(-i), [{ messages: 1000 }, { ip: '198.51.100.1', messages: 60, aligned: false }]);
      await records(diluted.id, dayOffset(-i), [{ messages: 1000 }, { ip: '198.51.100.1', messages: 10, aligned: false }]);
    }
    await records(few.id, dayOffset(-1), [{ messages: 500 }]);
    // Failures relayed by a forwarder (the reporter's override) are not the domain's failures.
    await records(spike.id, D, [{ messages: 900 }, { ip: '198.51.100.1', messages: 150, aligned: false }, { ip: '198.51.100.2', messages: 50, aligned: false, override: 'forwarded' }]);
    await records(few.id, D, [{ messages: 400 }, { ip: '198.51.100.1', messages: 99, aligned: false }]);
    await records(steady.id, D, [{ messages: 900 }, { ip: '198.51.100.1', messages: 150, aligned: false }]);
    await records(diluted.id, D, [{ messages: 1850 }, { ip: '198.51.100.1', messages: 150, aligned: false }]);
    for (const d of [spike, few, steady, diluted]) await report(d.id, D, new Date(NOW.getTime() - HOUR));

    const raisedBefore = await h.deps.counters.sumLast24h(SystemCounter.AlertsRaised);
    expect(await alerts.evaluate(NOW)).toEqual({ raised: 1, resolved: 0 });
    // Counted among the administrator's alerts raised, as a scan's alerts are.
    expect(await h.deps.counters.sumLast24h(SystemCounter.AlertsRaised)).toBe(raisedBefore + 1);
    const [alert, ...more] = await alertsOf(spike.id);
    expect(more).toEqual([]);
    expect(alert).toMatchObject({
      type: 'mail_failure_spike',
      severity: 'high',
      conditionKey: 'mail_failure_spike',
      resolvedAt: null,
      title: `DMARC failures spiked for ${spike.name}`,
      details: { day: D, failures: 150, messages: 1100, failureShare: 0.1364, baselineAverage: 20, baselineDays: 7 },
    });
    expect(alert!.message).toContain(`On ${D}, 150 of 1,100 messages sent as ${spike.name} failed DMARC (13.6%), against an average of 20 a day over the previous week.`);
    for (const d of [few, steady, diluted]) expect(await alertsOf(d.id)).toEqual([]);
    expect(await notifyEvents()).toContainEqual({ alertId: alert!.id, event: 'raised' });

    // The same hour again, and an hour later: nothing new.
    expect(await alerts.evaluate(NOW)).toEqual({ raised: 0, resolved: 0 });
    expect(await alerts.evaluate(new Date(NOW.getTime() + 0.5 * HOUR))).toEqual({ raised: 0, resolved: 0 });

    // The next day is back to normal: resolved once, and the resolution is delivered.
    const next = new Date(NOW.getTime() + DAY);
    await records(spike.id, dayOffset(1), [{ messages: 1000 }, { ip: '198.51.100.1', messages: 15, aligned: false }]);
    await report(spike.id, dayOffset(1), new Date(next.getTime() - HOUR));
    expect(await alerts.evaluate(next)).toEqual({ raised: 0, resolved: 1 });
    expect((await alertsOf(spike.id))[0]!.resolvedAt).toEqual(next);
    expect(await notifyEvents()).toContainEqual({ alertId: alert!.id, event: 'resolved' });
    // A late report of the spiking day raises nothing again.
    await report(spike.id, D, new Date(next.getTime() - HOUR));
    expect(await alerts.evaluate(next)).toEqual({ raised: 0, resolved: 0 });
    expect(await alertsOf(spike.id)).toHaveLength(1);
  });

  it('stays open while later days still spike', async () => {
    const d = await domainOn();
    for (let i = 1; i <= 7; i++) await records(d.id, dayOffset(-i), [{ messages: 1000 }]);
    // The failing mail comes from the domain's usual sender, so no new-sender alert comes with it.
    await records(d.id, D, [{ messages: 500 }, { messages: 300, aligned: false }]);
    await records(d.id, dayOffset(1), [{ messages: 500 }, { messages: 300, aligned: false }]);
    await report(d.id, D, new Date(NOW.getTime() - HOUR));
    await alerts.evaluate(NOW);
    const later = new Date(NOW.getTime() + DAY);
    await report(d.id, dayOffset(1), new Date(later.getTime() - HOUR));
    await alerts.evaluate(later);
    const rows = await alertsOf(d.id);
    expect(rows.map((r) => [r.type, r.resolvedAt])).toEqual([['mail_failure_spike', null]]);
  });
});

describe('mail_new_sender', () => {
  it('names each sender of 100+ messages not seen in 30 days, once, with its addresses and DMARC pass share', async () => {
    const d = await domainOn('basic');
    await source('192.0.2.1', 'google-workspace', 'mail-a.google.com');
    await source('203.0.113.10', 'mailchimp', 'mail10.mcsv.net');
    await source('203.0.113.11', 'mailchimp', 'mail11.mcsv.net');
    // A steady 50 failures a day, so the new senders' failures are no spike.
    for (let i = 1; i <= 10; i++) await records(d.id, dayOffset(-i), [{ ip: '192.0.2.1', messages: 200 }, { ip: '192.0.2.1', messages: 50, aligned: false }]);
    await records(d.id, dayOffset(-40), [{ ip: '198.51.100.9', messages: 500 }]); // seen, but longer ago than 30 days
    await records(d.id, D, [
      { ip: '192.0.2.1', messages: 200 },
      { ip: '198.51.100.7', messages: 120 },
      { ip: '198.51.100.7', messages: 30, aligned: false },
      { ip: '203.0.113.10', messages: 80, aligned: false },
      { ip: '203.0.113.11', messages: 40 },
      { ip: '198.51.100.8', messages: 99 }, // under 100
      { ip: '198.51.100.9', messages: 100 },
    ]);
    await report(d.id, D, new Date(NOW.getTime() - HOUR));

    expect(await alerts.evaluate(NOW)).toEqual({ raised: 3, resolved: 0 });
    const rows = await alertsOf(d.id);
    expect(rows.map((r) => r.details)).toEqual([
      {
        senderId: 'ip:198.51.100.7',
        day: D,
        name: '198.51.100.7',
        serviceId: null,
        addresses: [{ ip: '198.51.100.7', host: null, messages: 150 }],
        addressCount: 1,
        messages: 150,
        dmarcPass: 0.8,
      },
      {
        senderId: 'service:mailchimp',
        day: D,
        name: 'Mailchimp / Mandrill',
        serviceId: 'mailchimp',
        addresses: [
          { ip: '203.0.113.10', host: 'mail10.mcsv.net', messages: 80 },
          { ip: '203.0.113.11', host: 'mail11.mcsv.net', messages: 40 },
        ],
        addressCount: 2,
        messages: 120,
        dmarcPass: 0.3333,
      },
      {
        senderId: 'ip:198.51.100.9',
        day: D,
        name: '198.51.100.9',
        serviceId: null,
        addresses: [{ ip: '198.51.100.9', host: null, messages: 100 }],
        addressCount: 1,
        messages: 100,
        dmarcPass: 1,
      },
    ]);
    const mailchimp = rows[1]!;
    expect(mailchimp).toMatchObject({ type: 'mail_new_sender', severity: 'medium', conditionKey: null, resolvedAt: null, title: `New sender for ${d.name}: Mailchimp / Mandrill` });
    expect(mailchimp.message).toBe(
      `On ${D}, Mailchimp / Mandrill (2 addresses) sent 120 messages as ${d.name}; no mail from it was reported in the previous 30 days. ` +
        `33.3% of it passed DMARC. If you did not set this sender up, someone may be sending mail in the domain's name.`,
    );
    const events = await notifyEvents();
    for (const r of rows) expect(events).toContainEqual({ alertId: r.id, event: 'raised' });

    expect(await alerts.evaluate(NOW)).toEqual({ raised: 0, resolved: 0 });

    // The namer later names an address alerted by its IP: the service it turns out to be is not new again.
    await source('198.51.100.7', 'sendgrid', 'o1.sendgrid.net');
    await report(d.id, D, new Date(NOW.getTime() - 0.5 * HOUR));
    expect(await alerts.evaluate(NOW)).toEqual({ raised: 0, resolved: 0 });
    // The next day the same senders are seen already.
    const next = new Date(NOW.getTime() + DAY);
    await records(d.id, dayOffset(1), [{ ip: '203.0.113.10', messages: 500 }]);
    await report(d.id, dayOffset(1), new Date(next.getTime() - HOUR));
    expect(await alerts.evaluate(next)).toEqual({ raised: 0, resolved: 0 });
    expect(await alertsOf(d.id)).toHaveLength(3);
  });

  it('waits for a week of reports before any sender can be new', async () => {
    const d = await domainOn();
    for (let i = 1; i <= 6; i++) await records(d.id, dayOffset(-i), [{ ip: '192.0.2.50', messages: 200 }]);
    await records(d.id, D, [{ ip: '198.51.100.60', messages: 5000 }]);
    await report(d.id, D, new Date(NOW.getTime() - HOUR));
    await alerts.evaluate(NOW);
    expect(await alertsOf(d.id)).toEqual([]);
  });
});

describe('tls_rpt_failures', () => {
  it('is raised per result type at 10+ failed sessions and 5%, once, and resolved by a later day with none of that type', async () => {
    const d = await domainOn();
    const low = await domainOn(); // 20 failures in 1,020 sessions: 2%
    await tls(d.id, D, [
      { type: 'success', sessions: 180 },
      { type: 'starttls-not-supported', sessions: 7, mx: 'mx1.example.test' },
      { type: 'starttls-not-supported', sessions: 5, mx: 'mx2.example.test' },
      { type: 'certificate-expired', sessions: 8 }, // under 10
    ]);
    await tls(low.id, D, [
      { type: 'success', sessions: 1000 },
      { type: 'validation-failure', sessions: 20 },
    ]);
    for (const x of [d, low]) await report(x.id, D, new Date(NOW.getTime() - HOUR), 'tls');

    expect(await alerts.evaluate(NOW)).toEqual({ raised: 1, resolved: 0 });
    expect(await alertsOf(low.id)).toEqual([]);
    const [alert, ...more] = await alertsOf(d.id);
    expect(more).toEqual([]);
    expect(alert).toMatchObject({
      type: 'tls_rpt_failures',
      severity: 'high',
      conditionKey: 'tls_rpt_failures:starttls-not-supported',
      title: `TLS failures delivering to ${d.name}: starttls-not-supported`,
      details: { day: D, resultType: 'starttls-not-supported', failedSessions: 12, sessions: 200, failureShare: 0.06, mxHosts: ['mx1.example.test', 'mx2.example.test'] },
    });
    expect(alert!.message).toContain(`12 of 200 TLS sessions to ${d.name}'s mail servers (mx1.example.test, mx2.example.test) failed with "starttls-not-supported" (6%)`);
    expect(await notifyEvents()).toContainEqual({ alertId: alert!.id, event: 'raised' });
    expect(await alerts.evaluate(NOW)).toEqual({ raised: 0, resolved: 0 });

    // A later day with fewer (under the thresholds) keeps it open; one with none resolves it.
    const next = new Date(NOW.getTime() + DAY);
    await tls(d.id, dayOffset(1), [
      { type: 'success', sessions: 300 },
      { type: 'starttls-not-supported', sessions: 2 },
    ]);
    await report(d.id, dayOffset(1), new Date(next.getTime() - HOUR), 'tls');
    expect(await alerts.evaluate(next)).toEqual({ raised: 0, resolved: 0 });
    const after = new Date(next.getTime() + DAY);
    await tls(d.id, dayOffset(2), [
      { type: 'success', sessions: 300 },
      { type: 'certificate-expired', sessions: 3 },
    ]);
    await report(d.id, dayOffset(2), new Date(after.getTime() - HOUR), 'tls');
    expect(await alerts.evaluate(after)).toEqual({ raised: 0, resolved: 1 });
    expect((await alertsOf(d.id)).map((r) => r.resolvedAt)).toEqual([after]);
    expect(await notifyEvents()).toContainEqual({ alertId: alert!.id, event: 'resolved' });
  });
});

describe('mail_reports_stopped', () => {
  it('is raised when reports came on 3 of 14 days and then none for 72 hours, once, and resolved when one arrives', async () => {
    const stopped = await domainOn('advanced');
    const sparse = await domainOn(); // 2 days of reports
    const recent = await domainOn(); // last report 48 hours ago
    const tlsOnly = await domainOn(); // TLS-RPT reports are not DMARC reports
    for (const daysAgo of [10, 8, 5]) await report(stopped.id, D, new Date(NOW.getTime() - daysAgo * DAY));
    await report(stopped.id, D, new Date(NOW.getTime() - 5 * DAY - HOUR)); // a second report on the last day
    for (const daysAgo of [10, 5]) await report(sparse.id, D, new Date(NOW.getTime() - daysAgo * DAY));
    for (const hoursAgo of [200, 150, 48]) await report(recent.id, D, new Date(NOW.getTime() - hoursAgo * HOUR));
    for (const daysAgo of [10, 8, 5]) await report(tlsOnly.id, D, new Date(NOW.getTime() - daysAgo * DAY), 'tls');

    expect(await alerts.evaluate(NOW)).toEqual({ raised: 1, resolved: 0 });
    const [alert, ...more] = await alertsOf(stopped.id);
    expect(more).toEqual([]);
    const last = new Date(NOW.getTime() - 5 * DAY);
    expect(alert).toMatchObject({
      type: 'mail_reports_stopped',
      severity: 'medium',
      conditionKey: 'mail_reports_stopped',
      resolvedAt: null,
      title: `DMARC reports stopped arriving for ${stopped.name}`,
      details: { lastReceivedAt: last.toISOString(), reportDays: 3, silentHours: 120 },
    });
    expect(alert!.message).toContain(`No DMARC aggregate report has arrived for ${stopped.name} since 2026-03-05 12:00 UTC (120 hours), though reports came in on 3 of the previous 14 days.`);
    for (const d of [sparse, recent, tlsOnly]) expect(await alertsOf(d.id)).toEqual([]);
    expect(await notifyEvents()).toContainEqual({ alertId: alert!.id, event: 'raised' });

    expect(await alerts.evaluate(new Date(NOW.getTime() + HOUR))).toEqual({ raised: 0, resolved: 0 });

    const later = new Date(NOW.getTime() + 2 * HOUR);
    await report(stopped.id, D, new Date(NOW.getTime() + HOUR));
    expect(await alerts.evaluate(later)).toEqual({ raised: 0, resolved: 1 });
    expect((await alertsOf(stopped.id)).map((r) => r.resolvedAt)).toEqual([later]);
    expect(await notifyEvents()).toContainEqual({ alertId: alert!.id, event: 'resolved' });
  });
});

describe('plans', () => {
  it('gives a free-plan domain no mail-flow alerts', async () => {
    const d = await domainOn('free');
    await source('192.0.2.77', null);
    for (let i = 1; i <= 10; i++) await records(d.id, dayOffset(-i), [{ ip: '192.0.2.77', messages: 1000 }]);
    await records(d.id, D, [{ ip: '198.51.100.77', messages: 900, aligned: false }]);
    await tls(d.id, D, [{ type: 'certificate-expired', sessions: 50 }]);
    await report(d.id, D, new Date(NOW.getTime() - HOUR));
    await report(d.id, D, new Date(NOW.getTime() - HOUR), 'tls');
    for (const daysAgo of [10, 8, 5]) await report(d.id, dayOffset(-daysAgo), new Date(NOW.getTime() - daysAgo * DAY));
    await alerts.evaluate(NOW);
    await alerts.evaluate(new Date(NOW.getTime() + 5 * DAY));
    expect(await alertsOf(d.id)).toEqual([]);
  });
});
