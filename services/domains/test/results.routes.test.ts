import {
  checkTypes,
  dnsRecordsAnswer,
  domainHistoryAnswer,
  HISTORY_PLAN_MESSAGE,
  lastScanAnswer,
  listChecksAnswer,
  messages,
  REPUTATION_PLAN_MESSAGE,
  reputationAnswer,
  reputationHistoryAnswer,
  SCAN_NOT_FOUND,
  scanDetailAnswer,
} from '@sendwell/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswersLikeMissing, startHarness, type Harness } from './fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type Method = 'GET' | 'POST' | 'DELETE';
const call = (method: Method, url: string, headers: Record<string, string> = {}) => h.app.inject({ method, url, headers });

async function signedIn(plan = 'standard') {
  const user = await h.f.user(plan);
  return { user, headers: await h.auth(user) };
}

const expectSameAsMissing = (ownUrl: string, missingUrl: string, headers: Record<string, string>) => expectAnswersLikeMissing(h, { ownUrl, missingUrl, headers });

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

describe('GET /api/domains/{id}/checks and /name/{name}/checks', () => {
  it('answers [] before the first scan completes', async () => {
    const { user, headers } = await signedIn();
    const d = await h.f.domain({ userId: user.id });
    await h.f.scan(d.id);
    expect((await call('GET', `/api/domains/${d.id}/checks`, headers)).json()).toEqual([]);
    expect((await call('GET', `/api/domains/name/${d.name}/checks`, headers)).json()).toEqual([]);
  });

  it("answers the latest completed scan's six checks in card order, ignoring a newer scan still queued", async () => {
    const { user, headers } = await signedIn();
    const d = await h.f.domain({ userId: user.id, name: 'checks.example.com' });
    await h.f.completedScan(d.id, { at: minutesAgo(30), statuses: { dmarc: 'missing' } });
    const latest = await h.f.completedScan(d.id, { at: minutesAgo(10), statuses: { blacklist: 'error' } });
    await h.f.scan(d.id);

    for (const url of [`/api/domains/${d.id}/checks`, '/api/domains/name/Checks.Example.com/checks']) {
      const res = await call('GET', url, headers);
      expect(res.statusCode).toBe(200);
      const checks = listChecksAnswer.parse(res.json());
      expect(checks.map((c) => c.type)).toEqual([...checkTypes]);
      expect(checks.every((c) => c.scanId === latest)).toBe(true);
      expect(checks.find((c) => c.type === 'blacklist')?.status).toBe('error');
      expect(checks.find((c) => c.type === 'dmarc')?.status).toBe('valid');
    }
  });

  it("answers 400 for bad input and 404 for another user's domain", async () => {
    const owner = await h.f.user();
    const theirs = await h.f.domain({ userId: owner.id, name: 'private.example.com' });
    await h.f.completedScan(theirs.id);
    const { headers } = await signedIn();
    expect((await call('GET', '/api/domains/nope/checks', headers)).json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Invalid id' });
    expect((await call('GET', '/api/domains/name/x/checks', headers)).json()).toMatchObject({ message: messages.domainMin });
    await expectSameAsMissing(`/api/domains/${theirs.id}/checks`, '/api/domains/2147480000/checks', headers);
    await expectSameAsMissing('/api/domains/name/private.example.com/checks', '/api/domains/name/missing.example.com/checks', headers);
  });
});

describe('GET /api/domains/name/{name}/dns-records', () => {
  it("reads the latest scan's DNS snapshot and the SPF check's flattened addresses", async () => {
    const { user, headers } = await signedIn();
    const d = await h.f.domain({ userId: user.id, name: 'dns.example.com' });
    const at = minutesAgo(5);
    await h.f.completedScan(d.id, {
      at,
      spfIps: ['192.0.2.25', '198.51.100.0/24', '192.0.2.25'],
      snapshot: {
        a: ['192.0.2.1'],
        mx: [{ exchange: 'mx.dns.example.com', priority: 10, ips: ['192.0.2.25'] }],
        spfRecord: 'v=spf1 ip4:192.0.2.25 -all',
        dmarcRecord: 'v=DMARC1; p=reject',
      },
    });
    const res = await call('GET', '/api/domains/name/dns.example.com/dns-records', headers);
    expect(res.statusCode).toBe(200);
    expect(dnsRecordsAnswer.parse(res.json())).toEqual({
      aRecords: ['192.0.2.1'],
      mxRecords: [{ exchange: 'mx.dns.example.com', priority: 10, ips: ['192.0.2.25'] }],
      spfRecord: 'v=spf1 ip4:192.0.2.25 -all',
      spfIps: ['192.0.2.25', '198.51.100.0/24'],
      dmarcRecord: 'v=DMARC1; p=reject',
      checkedAt: at.toISOString(),
    });
  });

  it('answers empty records before any scan, 400 for a bad name, 404 for another user', async () => {
    const { user, headers } = await signedIn();
    const d = await h.f.domain({ userId: user.id });
    expect((await call('GET', `/api/domains/name/${d.name}/dns-records`, headers)).json()).toEqual({
      aRecords: [],
      mxRecords: [],
      spfRecord: null,
      spfIps: [],
      dmarcRecord: null,
      checkedAt: null,
    });
    expect((await call('GET', '/api/domains/name/bad_name.com/dns-records', headers)).json().message).toBe(messages.domainInvalid);
    const owner = await h.f.user();
    const theirs = await h.f.domain({ userId: owner.id });
    await expectSameAsMissing(`/api/domains/name/${theirs.name}/dns-records`, '/api/domains/name/nobody-here.example.com/dns-records', headers);
  });
});

describe('GET /api/domains/{id}/reputation', () => {
  it('answers the latest score with trend, previous score, factors and calculatedAt (standard and advanced)', async () => {
    for (const plan of ['standard', 'advanced']) {
      const { user, headers } = await signedIn(plan);
      const d = await h.f.domain({ userId: user.id });
      await h.f.reputation(d.id, 70, { at: minutesAgo(60) });
      await h.f.reputation(d.id, 82, { at: minutesAgo(1), trend: 'improving', previousScore: 70 });
      const res = await call('GET', `/api/domains/${d.id}/reputation`, headers);
      expect(res.statusCode).toBe(200);
      expect(reputationAnswer.parse(res.json())).toMatchObject({
        domainId: d.id,
        score: 82,
        trend: 'improving',
        previousScore: 70,
        calculatedAt: expect.any(String),
        factors: { weightedScores: { emailAuthentication: 30, securityDeliverability: 30, configurationHealth: 20 }, securityDeliverability: { blacklist: { score: 10 } } },
      });
    }
  });

  it('answers null before the first score', async () => {
    const { user, headers } = await signedIn('advanced');
    const d = await h.f.domain({ userId: user.id });
    const res = await call('GET', `/api/domains/${d.id}/reputation`, headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toBeNull();
  });

  it.each(['free', 'onetime', 'basic'])('answers 403 with the plan message on %s', async (plan) => {
    const { user, headers } = await signedIn(plan);
    const d = await h.f.domain({ userId: user.id });
    const res = await call('GET', `/api/domains/${d.id}/reputation`, headers);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: REPUTATION_PLAN_MESSAGE });
  });

  it("answers 400 for a bad id and 404 for another user's domain", async () => {
    const owner = await h.f.user('advanced');
    const theirs = await h.f.domain({ userId: owner.id });
    await h.f.reputation(theirs.id, 90);
    const { headers } = await signedIn('advanced');
    expect((await call('GET', '/api/domains/0/reputation', headers)).json().message).toBe('Invalid id');
    await expectSameAsMissing(`/api/domains/${theirs.id}/reputation`, '/api/domains/2147480001/reputation', headers);
  });
});

describe('GET /api/domains/{id}/reputation/history', () => {
  it('answers the scores oldest first (standard and advanced)', async () => {
    const { user, headers } = await signedIn('standard');
    const d = await h.f.domain({ userId: user.id });
    await h.f.reputation(d.id, 82, { at: minutesAgo(1), trend: 'improving', previousScore: 70 });
    await h.f.reputation(d.id, 70, { at: minutesAgo(60 * 24) });
    await h.f.reputation(d.id, 64, { at: minutesAgo(60 * 48) });
    const res = await call('GET', `/api/domains/${d.id}/reputation/history`, headers);
    expect(res.statusCode).toBe(200);
    const body = reputationHistoryAnswer.parse(res.json());
    expect(body.map((r) => r.score)).toEqual([64, 70, 82]);
    expect(body[2]).toMatchObject({ domainId: d.id, trend: 'improving', previousScore: 70 });
  });

  it('answers [] before the first score', async () => {
    const { user, headers } = await signedIn('advanced');
    const d = await h.f.domain({ userId: user.id });
    const res = await call('GET', `/api/domains/${d.id}/reputation/history`, headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it.each(['free', 'basic'])('answers 403 with the plan message on %s', async (plan) => {
    const { user, headers } = await signedIn(plan);
    const d = await h.f.domain({ userId: user.id });
    const res = await call('GET', `/api/domains/${d.id}/reputation/history`, headers);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: REPUTATION_PLAN_MESSAGE });
  });

  it("answers 404 for another user's domain, as for a missing one", async () => {
    const owner = await h.f.user('advanced');
    const theirs = await h.f.domain({ userId: owner.id });
    await h.f.reputation(theirs.id, 90);
    const { headers } = await signedIn('advanced');
    await expectSameAsMissing(`/api/domains/${theirs.id}/reputation/history`, '/api/domains/2147480001/reputation/history', headers);
  });
});

describe('GET /api/domains/{id}/last-scan', () => {
  it('summarises a deleted domain (part 2 §2.5)', async () => {
    const { user, headers } = await signedIn();
    const d = await h.f.domain({ userId: user.id, name: 'summary.example.com' });
    const scanAt = minutesAgo(90);
    await h.f.completedScan(d.id, { at: scanAt });
    await call('DELETE', `/api/domains/${d.id}`, headers);
    const res = await call('GET', `/api/domains/${d.id}/last-scan`, headers);
    expect(res.statusCode).toBe(200);
    const summary = lastScanAnswer.parse(res.json());
    expect(summary).toMatchObject({
      domainName: 'summary.example.com',
      domainId: d.id,
      status: 'healthy',
      scanDate: scanAt.toISOString(),
      scanCount: 1,
      isDeletedDomainSummary: true,
      deletionDate: expect.any(String),
      summary: { totalScans: 1, lastScanDate: scanAt.toISOString(), domainStatus: 'healthy' },
    });
    expect(summary.summary.note).toMatch(/not kept for deleted domains/);
  });

  it('works for an active domain too', async () => {
    const { user, headers } = await signedIn();
    const d = await h.f.domain({ userId: user.id });
    const res = await call('GET', `/api/domains/${d.id}/last-scan`, headers);
    expect(res.json()).toMatchObject({ isDeletedDomainSummary: false, deletionDate: null, scanDate: null, status: 'pending' });
  });

  it("answers 404 for another user's domain and a deletion past the window, 400 for a bad id", async () => {
    const owner = await h.f.user();
    const theirs = await h.f.domain({ userId: owner.id, deletedDaysAgo: 1 });
    const { user, headers } = await signedIn();
    const expired = await h.f.domain({ userId: user.id, deletedDaysAgo: 100 });
    await expectSameAsMissing(`/api/domains/${theirs.id}/last-scan`, '/api/domains/2147480002/last-scan', headers);
    await expectSameAsMissing(`/api/domains/${expired.id}/last-scan`, '/api/domains/2147480002/last-scan', headers);
    expect((await call('GET', '/api/domains/1e400/last-scan', headers)).json().message).toBe('Invalid id');
  });
});

describe('GET /api/domain-checks/history', () => {
  it('lists every active and restorable deleted domain; active ones with their newest completed scans, newest first', async () => {
    const { user, headers } = await signedIn('basic');
    const active = await h.f.domain({ userId: user.id, name: 'hist.example.com' });
    const older = await h.f.completedScan(active.id, { at: minutesAgo(120), statuses: { spf: 'error', dmarc: 'warning' } });
    const newer = await h.f.completedScan(active.id, { at: minutesAgo(60), statuses: { dkim: 'warning', ssl_certificate: 'unknown' } });
    await h.f.scan(active.id);
    const deleted = await h.f.domain({ userId: user.id, name: 'hist-deleted.example.com' });
    await h.f.completedScan(deleted.id);
    await call('DELETE', `/api/domains/${deleted.id}`, headers);
    await h.f.domain({ userId: user.id, deletedDaysAgo: 120 });
    const stranger = await h.f.user();
    await h.f.domain({ userId: stranger.id });

    const res = await call('GET', '/api/domain-checks/history', headers);
    expect(res.statusCode).toBe(200);
    const history = domainHistoryAnswer.parse(res.json());
    expect(history.map((d) => [d.name, d.isDeleted])).toEqual([
      ['hist.example.com', false],
      ['hist-deleted.example.com', true],
    ]);
    const summary = { status: 'completed', createdAt: expect.any(String), checkCount: 6, passedCount: 4, overallStatus: 'healthy', score: null, dnsChanges: [] };
    expect(history[0]!.scans).toEqual([
      { ...summary, id: newer, health: 'warning', checks: expect.objectContaining({ dkim: 'warning', ssl_certificate: 'unknown', spf: 'valid' }) },
      { ...summary, id: older, health: 'critical', checks: expect.objectContaining({ spf: 'error', dmarc: 'warning', dkim: 'valid' }) },
    ]);
    expect(Object.keys(history[0]!.scans[0]!.checks)).toHaveLength(checkTypes.length);
    // dns_performance 'success' is not "passed": the contracts' rule counts valid, passed and clean only (part 2 §4).
    expect(history[0]!.scanCount).toBe(2);
    expect(history[0]!.nextCursor).toBeNull();
    expect(history[1]).toMatchObject({ scans: [], nextCursor: null, scanCount: 1, deletedAt: expect.any(String) });
  });

  it("says what changed: each scan's DNS differences, and its score where the plan shows scores", async () => {
    const scanWithChange = async (plan: string) => {
      const { user, headers } = await signedIn(plan);
      const d = await h.f.domain({ userId: user.id });
      await h.f.completedScan(d.id, { at: minutesAgo(90) });
      const at = minutesAgo(30);
      const scan = await h.f.completedScan(d.id, { at, statuses: { dmarc: 'warning' } });
      // Calculated when the scan completes, as the scanner's recorder writes it.
      await h.f.reputation(d.id, 71, { scanId: scan, at });
      await h.f.alert({
        userId: user.id,
        domainId: d.id,
        type: 'dns_change',
        scanId: scan,
        details: { changes: [{ summary: 'DMARC policy downgraded from reject to none', impact: 'weakens' }, { summary: 'MX changed', impact: 'mail' }] },
      });
      await h.f.alert({ userId: user.id, domainId: d.id, type: 'dmarc_missing', scanId: scan, details: { changes: [{ summary: 'not a DNS change' }] } });
      const [newest, previous] = domainHistoryAnswer.parse((await call('GET', '/api/domain-checks/history', headers)).json())[0]!.scans;
      return { newest: newest!, previous: previous! };
    };

    const standard = await scanWithChange('standard');
    expect(standard.newest).toMatchObject({ score: 71, dnsChanges: ['DMARC policy downgraded from reject to none', 'MX changed'], checks: { dmarc: 'warning' } });
    expect(standard.previous).toMatchObject({ score: null, dnsChanges: [], checks: { dmarc: 'valid' } });
    // Basic has history but no reputation score (plan rules in the contracts): the score stays hidden.
    expect((await scanWithChange('basic')).newest).toMatchObject({ score: null, dnsChanges: ['DMARC policy downgraded from reject to none', 'MX changed'] });
  });

  it.each(['free', 'onetime'])('answers 403 with the plan message on %s', async (plan) => {
    const { headers } = await signedIn(plan);
    const res = await call('GET', '/api/domain-checks/history', headers);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: HISTORY_PLAN_MESSAGE });
  });

  it('answers [] for a paid user without domains', async () => {
    const { headers } = await signedIn('advanced');
    expect((await call('GET', '/api/domain-checks/history', headers)).json()).toEqual([]);
  });
});

describe('GET /api/domain-checks/{scanId}', () => {
  it('answers one scan with its checks, summary and the DNS records it read', async () => {
    const { user, headers } = await signedIn();
    const d = await h.f.domain({ userId: user.id, name: 'one-scan.example.com' });
    const scanId = await h.f.completedScan(d.id, {
      statuses: { blacklist: 'error' },
      snapshot: { a: ['192.0.2.7'], spfRecord: 'v=spf1 mx -all', dmarcRecord: 'v=DMARC1; p=quarantine' },
    });
    // A later scan read other records: the detail is this scan's, not the latest.
    await h.f.completedScan(d.id, { snapshot: { a: ['192.0.2.8'], spfRecord: 'v=spf1 -all' } });
    const res = await call('GET', `/api/domain-checks/${scanId}`, headers);
    expect(res.statusCode).toBe(200);
    const detail = scanDetailAnswer.parse(res.json());
    expect(detail).toMatchObject({
      scan: { id: scanId, domainId: d.id, status: 'completed', trigger: 'scheduled' },
      domain: { id: d.id, name: 'one-scan.example.com' },
      checkCount: 6,
      passedCount: 5,
      health: 'critical',
      dnsRecords: { aRecords: ['192.0.2.7'], spfRecord: 'v=spf1 mx -all', dmarcRecord: 'v=DMARC1; p=quarantine', checkedAt: expect.any(String) },
    });
    expect(detail.checks).toHaveLength(checkTypes.length);
  });

  it("answers 404 for another user's scan, a deleted domain's scan and an unknown id; 400 for a malformed id", async () => {
    const owner = await h.f.user();
    const theirs = await h.f.domain({ userId: owner.id });
    const theirScan = await h.f.completedScan(theirs.id);
    const { user, headers } = await signedIn();
    const gone = await h.f.domain({ userId: user.id });
    const goneScan = await h.f.completedScan(gone.id);
    await call('DELETE', `/api/domains/${gone.id}`, headers);
    const unknown = '00000000-0000-4000-8000-000000000000';
    await expectSameAsMissing(`/api/domain-checks/${theirScan}`, `/api/domain-checks/${unknown}`, headers);
    await expectSameAsMissing(`/api/domain-checks/${goneScan}`, `/api/domain-checks/${unknown}`, headers);
    expect((await call('GET', `/api/domain-checks/${unknown}`, headers)).json()).toMatchObject({ code: 'NOT_FOUND', message: SCAN_NOT_FOUND });
    const bad = await call('GET', '/api/domain-checks/123', headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Invalid scan id');
  });
});
