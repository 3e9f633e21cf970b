import { DOMAIN_NOT_FOUND, SENDER_REQUIREMENTS_PLAN_MESSAGE, senderRequirementsSchema, type SenderRequirements } from '@sendwell/contracts';
import { sql } from '@sendwell/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './fixtures.js';
import { analysisFixture } from './mail-tests/analysis.js';
import { dayBefore, goodAnalysis, GOOD_CHECKS, insertDoneTest, insertRecords, insertScan, namedSource } from './sender-requirements-fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const HOUR_MS = 3_600_000;
const url = (id: number | string) => `/api/domains/${id}/sender-requirements`;

async function ownedDomain(plan = 'standard') {
  const user = await h.f.user(plan);
  const domain = await h.f.domain({ userId: user.id });
  return { user, domain, headers: await h.auth(user) };
}

const requirement = (answer: SenderRequirements, id: string) => answer.requirements.find((r) => r.id === id);

describe('GET /api/domains/:id/sender-requirements', () => {
  it('judges from the latest scan, the authorised mail of the last 30 days and the latest test message, and keeps the verdict', async () => {
    const { user, domain, headers } = await ownedDomain('standard');
    const now = new Date();
    // An older scan with no SPF record: only the latest completed one counts.
    await insertScan(h.db, domain.id, { ...GOOD_CHECKS, spf: { status: 'missing', record: null } }, new Date(now.getTime() - 48 * HOUR_MS));
    const scan = await insertScan(h.db, domain.id, GOOD_CHECKS, new Date(now.getTime() - 2 * HOUR_MS));

    // Authorised: 192.0.2.10 (confirmed host) and 192.0.2.11 (looked up, no confirmed name; passes DMARC).
    await namedSource(h.db, '192.0.2.10', 'mail1.shop-sender.example');
    await namedSource(h.db, '192.0.2.11', null);
    await insertRecords(h.db, domain.id, dayBefore(now, 2), [
      { ip: '192.0.2.10', messages: 400 },
      { ip: '192.0.2.11', messages: 12, dkimAligned: false },
      { ip: '192.0.2.11', messages: 3, spfAligned: false },
      // A spoofer failing everything, and mail relayed by a forwarder: not the domain's senders.
      { ip: '203.0.113.5', messages: 40, spfAligned: false, dkimAligned: false },
      { ip: '198.51.100.7', messages: 20, spfAligned: false, dkimAligned: false, override: 'forwarded' },
    ]);
    // Outside the 30 days: not counted.
    await insertRecords(h.db, domain.id, dayBefore(now, 40), [{ ip: '192.0.2.10', messages: 50, spfAligned: false, dkimAligned: false, spfResult: 'fail', dkimResult: 'fail' }]);

    // The latest test message wins over an older failing one; another domain's test is not this one's.
    const poor = analysisFixture();
    await insertDoneTest(h.db, { userId: user.id, domainId: domain.id, receivedAt: new Date(now.getTime() - 10 * 24 * HOUR_MS), analysis: poor });
    const receivedAt = new Date(now.getTime() - 24 * HOUR_MS);
    await insertDoneTest(h.db, { userId: user.id, domainId: domain.id, receivedAt, analysis: goodAnalysis() });
    await insertDoneTest(h.db, { userId: user.id, domainId: null, receivedAt: new Date(now.getTime() - HOUR_MS), analysis: poor });

    const res = await h.app.inject({ method: 'GET', url: url(domain.id), headers });
    expect(res.statusCode).toBe(200);
    const answer = senderRequirementsSchema.parse(res.json());
    expect(answer).toMatchObject({ domainId: domain.id, domain: domain.name, counts: { met: 5, unmet: 3, unknown: 0, not_measurable: 1 } });
    // The window is the service's own clock's: derived from the answer, not from this test's clock.
    const evaluatedAt = new Date(answer.evaluatedAt);
    const from = dayBefore(evaluatedAt, 29);
    const to = dayBefore(evaluatedAt, 0);
    expect(answer.sources).toEqual({
      dns: { state: 'used', observedAt: scan.completedAt.toISOString(), summary: `The scan completed on ${dayBefore(scan.completedAt, 0)}: SPF valid, DKIM valid, DMARC warning.` },
      mail_flow: { state: 'used', observedAt: `${to}T00:00:00.000Z`, summary: `415 messages from authorised senders reported between ${from} and ${to}, 100.00% passing DMARC.` },
      mail_test: { state: 'used', observedAt: receivedAt.toISOString(), summary: `The test message received on ${dayBefore(receivedAt, 0)} scored 8.5 out of 10.` },
    });

    const details = (id: string) => requirement(answer, id)?.evidence.map((e) => [e.source, e.status, e.detail]);
    expect(requirement(answer, 'spf')?.status).toBe('unmet');
    expect(details('spf')).toEqual([
      ['dns', 'met', `${domain.name} publishes an SPF record: v=spf1 include:_spf.google.com -all`],
      ['mail_flow', 'unmet', '412 of 415 messages from authorised senders passed SPF (99.28%).'],
      ['mail_test', 'met', 'The test message passed SPF for sender.example.'],
    ]);
    expect(details('dkim')).toEqual([
      ['dns', 'met', `A DKIM key is published for ${domain.name} (selector google).`],
      ['mail_flow', 'unmet', '403 of 415 messages from authorised senders passed DKIM (97.11%).'],
      ['mail_test', 'met', 'The test message carried a passing DKIM signature (d=sender.example, selector s1).'],
    ]);
    expect(details('alignment')?.[0]).toEqual(['mail_flow', 'met', `415 of 415 messages from authorised senders passed DMARC, SPF or DKIM aligned with ${domain.name} (100.00%).`]);
    expect(details('reverse_dns')).toEqual([
      ['mail_flow', 'unmet', '1 of 2 sending addresses of authorised senders have no forward-confirmed reverse DNS: 192.0.2.11.'],
      ['mail_test', 'met', 'The sending address 127.0.0.1 has forward-confirmed reverse DNS (mx.sender.example).'],
    ]);
    expect(Object.fromEntries(answer.requirements.map((r) => [r.id, r.status]))).toEqual({
      spf: 'unmet',
      dkim: 'unmet',
      dmarc: 'met',
      alignment: 'met',
      reverse_dns: 'unmet',
      tls: 'met',
      one_click_unsubscribe: 'met',
      message_format: 'met',
      complaint_rate: 'not_measurable',
    });

    // As text: the camel-case plugin would rename the verdict's snake_case keys.
    const kept = await h.db
      .selectFrom('senderRequirementVerdicts')
      .select([sql<string>`verdict::text`.as('verdict'), 'evaluatedAt'])
      .where('domainId', '=', domain.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(kept.verdict)).toEqual(answer);
    expect(kept.evaluatedAt.toISOString()).toBe(answer.evaluatedAt);
  });

  it('leaves test messages out on the basic plan, and answers unknowns without any evidence', async () => {
    const { domain, headers } = await ownedDomain('basic');
    const res = await h.app.inject({ method: 'GET', url: url(domain.id), headers });
    expect(res.statusCode).toBe(200);
    const answer = res.json<SenderRequirements>();
    expect(answer.sources.mail_test).toEqual({ state: 'plan', summary: 'Test messages (Inbox Testing) are available on the Standard plan and above.' });
    expect(answer.sources.mail_flow.state).toBe('none');
    expect(answer.sources.dns.state).toBe('none');
    expect(answer.counts).toEqual({ met: 0, unmet: 0, unknown: 8, not_measurable: 1 });
    expect(requirement(answer, 'tls')?.fix).toBe('No evidence yet: upgrade to Standard to send a test message to Inbox Testing.');
  });

  it('refuses a bad id, a request without a session, a free plan and another user’s domain', async () => {
    const { domain, headers } = await ownedDomain();

    const bad = await h.app.inject({ method: 'GET', url: url('abc'), headers });
    expect(bad.statusCode).toBe(400);

    const noAuth = await h.app.inject({ method: 'GET', url: url(domain.id) });
    expect(noAuth.statusCode).toBe(401);

    const free = await ownedDomain('free');
    const plan = await h.app.inject({ method: 'GET', url: url(free.domain.id), headers: free.headers });
    expect(plan.statusCode).toBe(403);
    expect(plan.json()).toMatchObject({ message: SENDER_REQUIREMENTS_PLAN_MESSAGE, requiresUpgrade: true });

    const other = await ownedDomain();
    const theirs = await h.app.inject({ method: 'GET', url: url(domain.id), headers: other.headers });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().message).toBe(DOMAIN_NOT_FOUND);

    const missing = await h.app.inject({ method: 'GET', url: url(2_000_000_000), headers });
    expect(missing.statusCode).toBe(404);
    // Nothing was judged for any of them.
    const kept = await h.db.selectFrom('senderRequirementVerdicts').select('domainId').where('domainId', 'in', [domain.id, free.domain.id]).execute();
    expect(kept).toEqual([]);
  });
});
