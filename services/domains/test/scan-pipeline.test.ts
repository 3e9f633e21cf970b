import { checkTypes, JobName, listChecksAnswer, scanStatusAnswer, signupDomainJobId, type ScanStatus } from '@sendwell/contracts';
import { createTestScanner, type TestScanner } from '@sendwell/scanner/testing';
import { mailDomainZone, startDnsServer, type TestDnsServer } from '@sendwell/testing';
import type { Worker } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './fixtures.js';
import { waitUntil } from './wait.js';

/**
 * The scan calls against a REAL scanner (`@sendwell/scanner/testing`: its own deps and check modules)
 * on the same database and BullMQ prefix, resolving through a fixture DNS server on loopback; it
 * sends nothing off the machine.
 */

let h: Harness;
let dns: TestDnsServer;
let scanner: TestScanner;
const workers: Worker[] = [];

beforeAll(async () => {
  h = await startHarness();
  dns = await startDnsServer({ records: { ...mailDomainZone('pipeline.test'), ...mailDomainZone('signup.test'), ...mailDomainZone('dedup.test') } });
  scanner = createTestScanner({ databaseUrl: h.testDb.url, redisUrl: h.deps.env.REDIS_URL, queuePrefix: h.prefix, dns });
}, 60_000);

afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.close()));
});

afterAll(async () => {
  await scanner.close();
  await dns.close();
  await h.close();
});

describe('a manual scan through the real scanner', () => {
  it('goes from POST /scan (202, queued) to a completed scan and GET /checks answering its six checks', async () => {
    const user = await h.f.user('standard');
    const headers = await h.auth(user);
    const domain = await h.f.domain({ userId: user.id, name: 'pipeline.test' });

    const started = await h.app.inject({ method: 'POST', url: `/api/domains/${domain.id}/scan`, headers });
    expect(started.statusCode).toBe(202);
    const { scanId } = started.json() as { scanId: string };
    const statusOf = async () => {
      const res = await h.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/scans/${scanId}`, headers });
      return scanStatusAnswer.parse(res.json());
    };
    expect((await statusOf()).status).toBe('queued');

    workers.push(scanner.startWorker());
    const seen = new Set<ScanStatus>();
    const done = await waitUntil(async () => {
      const scan = await statusOf();
      seen.add(scan.status);
      // Never a state outside the contracts' progression.
      expect(['queued', 'running', 'completed']).toContain(scan.status);
      return scan.status === 'completed' || scan.status === 'failed' ? scan : null;
    }, 'scan completed');
    expect(done).toMatchObject({ status: 'completed', trigger: 'manual', startedAt: expect.any(String), completedAt: expect.any(String) });

    const checks = listChecksAnswer.parse((await h.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/checks`, headers })).json());
    expect(checks.map((c) => c.type)).toEqual([...checkTypes]);
    expect(checks.every((c) => c.scanId === scanId)).toBe(true);
    expect(Object.fromEntries(checks.map((c) => [c.type, c.status]))).toMatchObject({ spf: 'valid', dkim: 'valid', dmarc: 'valid', blacklist: 'valid' });

    const byName = (await h.app.inject({ method: 'GET', url: '/api/domains/name/pipeline.test/checks', headers })).json() as Array<{ scanId: string }>;
    expect(byName.map((c) => c.scanId)).toEqual(checks.map(() => scanId));

    const records = (await h.app.inject({ method: 'GET', url: '/api/domains/name/pipeline.test/dns-records', headers })).json();
    expect(records).toMatchObject({
      aRecords: ['127.0.0.1'],
      mxRecords: [{ exchange: 'mx.pipeline.test', priority: 10, ips: ['192.0.2.25'] }],
      spfRecord: 'v=spf1 ip4:192.0.2.25 -all',
      spfIps: ['192.0.2.25'],
      dmarcRecord: 'v=DMARC1; p=reject; rua=mailto:dmarc@pipeline.test',
      checkedAt: done.completedAt,
    });

    const listed = (await h.app.inject({ method: 'GET', url: '/api/domains', headers })).json()[0];
    expect(listed).toMatchObject({ id: domain.id, scanCount: 1, lastScan: expect.any(String), status: expect.stringMatching(/healthy|warning|critical/) });
    const reputation = await h.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/reputation`, headers });
    expect(reputation.json()).toMatchObject({ domainId: domain.id, score: expect.any(Number), factors: { weightedScores: expect.any(Object) } });
    const history = (await h.app.inject({ method: 'GET', url: '/api/domain-checks/history', headers })).json();
    expect(history[0].scans).toEqual([expect.objectContaining({ id: scanId, checkCount: 6 })]);
  });
});

describe('deduplication across producers', () => {
  it('does not queue a manual scan beside a scheduled one the sweeper queued: the answer is the pending scan', async () => {
    const user = await h.f.user('advanced');
    const headers = await h.auth(user);
    const domain = await h.f.domain({ userId: user.id, name: 'dedup.test', nextScanAt: new Date(Date.now() - 1000) });

    const swept = await scanner.sweep();
    expect(swept.queued).toBeGreaterThanOrEqual(1);
    const [scheduled] = await h.db.selectFrom('scans').select(['id', 'trigger']).where('domainId', '=', domain.id).execute();
    expect(scheduled?.trigger).toBe('scheduled');

    const manual = await h.app.inject({ method: 'POST', url: `/api/domains/${domain.id}/scan`, headers });
    expect(manual.statusCode).toBe(202);
    expect(manual.json().scanId).toBe(scheduled!.id);
    const rows = await h.db.selectFrom('scans').select('id').where('domainId', '=', domain.id).execute();
    expect(rows).toHaveLength(1);
    const jobs = (await h.deps.queues.scan.getJobs(['waiting', 'prioritized', 'delayed', 'active'])).filter((j) => (j.data as { domainId?: number }).domainId === domain.id);
    expect(jobs).toHaveLength(1);

    // And the other way round: a due domain whose manual scan is pending is not queued again by the sweeper.
    await h.db.updateTable('domains').set({ nextScanAt: new Date(Date.now() - 1000) }).where('id', '=', domain.id).execute();
    const again = await scanner.sweep();
    expect(again.deduplicated).toBeGreaterThanOrEqual(1);
    expect(await h.db.selectFrom('scans').select('id').where('domainId', '=', domain.id).execute()).toHaveLength(1);
  });
});

describe('the provision-signup-domain job', () => {
  it('adds the sign-up domain for the user and queues its first scan, which the scanner completes; a repeat does nothing', async () => {
    const user = await h.f.user('free');
    const headers = await h.auth(user);
    workers.push((await h.deps.startMaintenance())!, scanner.startWorker());

    await h.deps.queues.add(JobName.ProvisionSignupDomain, { userId: user.id, domain: 'signup.test' }, { jobId: signupDomainJobId(user.id) });
    const domain = await waitUntil(
      () => h.db.selectFrom('domains').select(['id', 'name', 'nextScanAt']).where('userId', '=', user.id).executeTakeFirst(),
      'domain provisioned',
    );
    expect(domain).toMatchObject({ name: 'signup.test', nextScanAt: null });
    const scan = await waitUntil(
      () => h.db.selectFrom('scans').select(['id', 'trigger', 'status']).where('domainId', '=', domain.id).where('status', '=', 'completed').executeTakeFirst(),
      'first scan completed',
    );
    expect(scan.trigger).toBe('signup');
    const checks = (await h.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/checks`, headers })).json() as Array<{ scanId: string }>;
    expect(checks).toHaveLength(checkTypes.length);
    expect(checks.every((c) => c.scanId === scan.id)).toBe(true);

    // Idempotent: the same job again (another id, as a retried producer might) adds nothing and queues nothing.
    const job = await h.deps.queues.add(JobName.ProvisionSignupDomain, { userId: user.id, domain: 'signup.test' }, { jobId: `${signupDomainJobId(user.id)}-again` });
    await waitUntil(async () => (await job.getState()) === 'completed', 'repeat job done');
    expect((await h.deps.queues.maintenance.getJob(job.id!))?.returnvalue).toEqual({ outcome: 'present', domainId: domain.id, scanId: null });
    expect(await h.db.selectFrom('domains').select('id').where('userId', '=', user.id).execute()).toHaveLength(1);
    expect(await h.db.selectFrom('scans').select('id').where('domainId', '=', domain.id).execute()).toHaveLength(1);
  });
});
