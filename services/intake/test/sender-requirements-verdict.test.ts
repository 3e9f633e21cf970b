import { SENDER_REQUIREMENTS, senderRequirementsSchema, type MailTestAnalysis, type SenderRequirementId, type SenderRequirements } from '@sendwell/contracts';
import { describe, expect, it } from 'vitest';
import type { DnsEvidence, MailFlowEvidence, MailTestEvidence, VerdictInput } from '../src/sender-requirements/evidence.js';
import { judgeSenderRequirements } from '../src/sender-requirements/verdict.js';
import { analysisFixture } from './mail-tests/analysis.js';
import { goodAnalysis } from './sender-requirements-fixtures.js';

const NOW = new Date('2026-03-10T12:00:00Z');
const SCANNED = new Date('2026-03-09T08:00:00Z');
const RECEIVED = new Date('2026-03-08T10:30:00Z');
const DOMAIN = 'shop.example';

function dns(overrides: Partial<DnsEvidence> = {}): DnsEvidence {
  return {
    scanId: 'scan-1',
    completedAt: SCANNED,
    spf: { status: 'valid', message: null, record: 'v=spf1 include:_spf.google.com -all' },
    dkim: { status: 'valid', message: null, keys: ['google'] },
    dmarc: { status: 'warning', message: null, record: 'v=DMARC1; p=none; rua=mailto:r@reports.example', policy: 'none', inherited: false },
    ...overrides,
  };
}

function flow(overrides: Partial<MailFlowEvidence> = {}): MailFlowEvidence {
  return {
    from: '2026-02-09',
    to: '2026-03-10',
    messages: 415,
    spfPass: 415,
    dkimPass: 415,
    dmarcPass: 415,
    addressesLookedUp: 3,
    addressesConfirmed: 3,
    unconfirmed: [],
    addressesPending: 0,
    ...overrides,
  };
}


const test = (analysis: MailTestAnalysis = goodAnalysis()): MailTestEvidence => ({ id: 7, receivedAt: RECEIVED, analysis });

function judge(input: Partial<VerdictInput>): SenderRequirements {
  const verdict = judgeSenderRequirements({ domainId: 1, domain: DOMAIN, evaluatedAt: NOW, dns: null, mailFlow: null, mailTest: null, ...input });
  // Every verdict is what the contract says, or the route would refuse to answer it.
  expect(senderRequirementsSchema.parse(verdict)).toEqual(verdict);
  return verdict;
}

const req = (v: SenderRequirements, id: SenderRequirementId) => {
  const r = v.requirements.find((x) => x.id === id);
  if (!r) throw new Error(`no ${id}`);
  return r;
};
const statuses = (v: SenderRequirements) => Object.fromEntries(v.requirements.map((r) => [r.id, r.status]));

describe('judgeSenderRequirements', () => {
  it('without any evidence: every requirement unknown with how to get evidence, the complaint rate not measurable', () => {
    const v = judge({});
    expect(statuses(v)).toEqual({
      spf: 'unknown',
      dkim: 'unknown',
      dmarc: 'unknown',
      alignment: 'unknown',
      reverse_dns: 'unknown',
      tls: 'unknown',
      one_click_unsubscribe: 'unknown',
      message_format: 'unknown',
      complaint_rate: 'not_measurable',
    });
    expect(v.counts).toEqual({ met: 0, unmet: 0, unknown: 8, not_measurable: 1 });
    expect(v.sources.dns).toEqual({ state: 'none', summary: 'No scan of the domain has completed yet.' });
    expect(v.sources.mail_flow.state).toBe('none');
    expect(v.sources.mail_test.state).toBe('none');
    expect(req(v, 'spf').fix).toBe(
      'No evidence yet: run a scan of the domain, publish your Sendwell DMARC report address (rua) so aggregate reports arrive or send a test message from the domain to Inbox Testing.',
    );
    expect(req(v, 'tls').fix).toBe('No evidence yet: send a test message from the domain to Inbox Testing.');
    const complaints = req(v, 'complaint_rate');
    expect(complaints).toMatchObject({ evidence: [], fix: null, links: SENDER_REQUIREMENTS.complaint_rate.links });
    expect(v).toMatchObject({ domainId: 1, domain: DOMAIN, evaluatedAt: NOW.toISOString() });
    for (const r of v.requirements) expect(r).toMatchObject({ title: SENDER_REQUIREMENTS[r.id].title, description: SENDER_REQUIREMENTS[r.id].description, providers: SENDER_REQUIREMENTS[r.id].providers });
  });

  describe('DNS alone', () => {
    it('meets SPF, DKIM and DMARC with published records, and leaves the rest unknown', () => {
      const v = judge({ dns: dns() });
      expect(statuses(v)).toMatchObject({ spf: 'met', dkim: 'met', dmarc: 'met', alignment: 'unknown', reverse_dns: 'unknown', tls: 'unknown' });
      expect(req(v, 'spf').evidence).toEqual([{ source: 'dns', status: 'met', detail: 'shop.example publishes an SPF record: v=spf1 include:_spf.google.com -all', observedAt: SCANNED.toISOString() }]);
      expect(req(v, 'dkim').evidence[0]?.detail).toBe('A DKIM key is published for shop.example (selector google).');
      expect(req(v, 'dmarc').evidence[0]?.detail).toBe('A DMARC record with p=none applies to shop.example: v=DMARC1; p=none; rua=mailto:r@reports.example');
      expect(req(v, 'spf').fix).toBeNull();
      expect(v.sources.dns).toEqual({ state: 'used', observedAt: SCANNED.toISOString(), summary: 'The scan completed on 2026-03-09: SPF valid, DKIM valid, DMARC warning.' });
      expect(v.counts).toEqual({ met: 3, unmet: 0, unknown: 5, not_measurable: 1 });
    });

    it('is unmet for a missing or void record, and says nothing when the lookup failed', () => {
      const v = judge({
        dns: dns({
          spf: { status: 'missing', message: 'No SPF record found.', record: null },
          dkim: { status: 'warning', message: 'Only revoked DKIM keys were found (old).', keys: [] },
          dmarc: { status: 'error', message: '2 DMARC records are published at _dmarc.shop.example, which voids DMARC.', record: 'a | b', policy: 'none', inherited: false },
        }),
      });
      expect(statuses(v)).toMatchObject({ spf: 'unmet', dkim: 'unmet', dmarc: 'unmet' });
      expect(req(v, 'spf').evidence[0]?.detail).toBe('shop.example publishes no SPF record.');
      expect(req(v, 'dkim').evidence[0]?.detail).toBe('No usable DKIM key is published for shop.example. Only revoked DKIM keys were found (old).');
      expect(req(v, 'dmarc').evidence[0]?.detail).toBe(
        "shop.example's DMARC record is void, so receivers apply none. 2 DMARC records are published at _dmarc.shop.example, which voids DMARC.",
      );
      expect(req(v, 'dmarc').fix).toContain('_dmarc.shop.example');

      const failed = judge({ dns: dns({ spf: { status: 'unknown', message: null, record: null }, dkim: null }) });
      expect(statuses(failed)).toMatchObject({ spf: 'unknown', dkim: 'unknown', dmarc: 'met' });
      expect(failed.sources.dns.summary).toBe('The scan completed on 2026-03-09: SPF unknown, DKIM not checked, DMARC warning.');
    });

    it('takes an inherited DMARC record as applying, and says so', () => {
      const v = judge({ dns: dns({ dmarc: { status: 'valid', message: null, record: 'v=DMARC1; p=reject', policy: 'reject', inherited: true } }) });
      expect(req(v, 'dmarc').evidence[0]?.detail).toBe('A DMARC record with p=reject applies to shop.example (inherited from the organisational domain): v=DMARC1; p=reject');
    });
  });

  describe('mail flow alone', () => {
    it('gives the shares of authorised mail passing SPF, DKIM and DMARC, unmet from 0.5% failing', () => {
      const v = judge({ mailFlow: flow({ spfPass: 412, dkimPass: 415, dmarcPass: 413 }) });
      expect(req(v, 'spf').evidence).toEqual([
        { source: 'mail_flow', status: 'unmet', detail: '412 of 415 messages from authorised senders passed SPF (99.28%).', observedAt: '2026-03-10T00:00:00.000Z' },
      ]);
      expect(req(v, 'dkim').evidence[0]).toMatchObject({ status: 'met', detail: '415 of 415 messages from authorised senders passed DKIM (100.00%).' });
      // 2 of 415 failing is 0.48%: under the bar.
      expect(req(v, 'alignment').evidence[0]).toMatchObject({ status: 'met', detail: '413 of 415 messages from authorised senders passed DMARC, SPF or DKIM aligned with shop.example (99.52%).' });
      expect(req(v, 'reverse_dns').evidence[0]).toMatchObject({ status: 'met', detail: 'All 3 sending addresses of authorised senders have forward-confirmed reverse DNS.' });
      expect(statuses(v)).toMatchObject({ spf: 'unmet', dkim: 'met', dmarc: 'unknown', alignment: 'met', reverse_dns: 'met', tls: 'unknown' });
      expect(req(v, 'spf').fix).toContain('SPF record for shop.example');
      expect(v.sources.mail_flow).toEqual({
        state: 'used',
        observedAt: '2026-03-10T00:00:00.000Z',
        summary: '415 messages from authorised senders reported between 2026-02-09 and 2026-03-10, 99.52% passing DMARC.',
      });
    });

    it('puts the bar at exactly 0.5% failing', () => {
      expect(req(judge({ mailFlow: flow({ messages: 1000, spfPass: 995 }) }), 'spf').status).toBe('unmet');
      expect(req(judge({ mailFlow: flow({ messages: 1000, spfPass: 996 }) }), 'spf').status).toBe('met');
    });

    it('names the sending addresses without confirmed reverse DNS, and counts the rest', () => {
      const v = judge({
        mailFlow: flow({ addressesLookedUp: 9, addressesConfirmed: 2, unconfirmed: ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4', '192.0.2.5'], addressesPending: 1 }),
      });
      expect(req(v, 'reverse_dns')).toMatchObject({ status: 'unmet', fix: expect.stringContaining('PTR') });
      expect(req(v, 'reverse_dns').evidence[0]?.detail).toBe(
        '7 of 9 sending addresses of authorised senders have no forward-confirmed reverse DNS: 192.0.2.1, 192.0.2.2, 192.0.2.3, 192.0.2.4, 192.0.2.5 and 2 more (1 more not looked up yet).',
      );
    });

    it('gives no reverse DNS evidence before any address is looked up', () => {
      const v = judge({ mailFlow: flow({ addressesLookedUp: 0, addressesConfirmed: 0, addressesPending: 3 }) });
      expect(req(v, 'reverse_dns')).toMatchObject({ status: 'unknown', evidence: [] });
      expect(req(v, 'reverse_dns').fix).toBe('No evidence yet: wait for the sending addresses to be looked up (within the hour) or send a test message from the domain to Inbox Testing.');
    });
  });

  describe('the test message alone', () => {
    it('meets everything a well-sent message shows', () => {
      const v = judge({ mailTest: test() });
      expect(statuses(v)).toEqual({
        spf: 'met',
        dkim: 'met',
        dmarc: 'met',
        alignment: 'met',
        reverse_dns: 'met',
        tls: 'met',
        one_click_unsubscribe: 'met',
        message_format: 'met',
        complaint_rate: 'not_measurable',
      });
      const details = Object.fromEntries(v.requirements.map((r) => [r.id, r.evidence.map((e) => e.detail)]));
      expect(details).toEqual({
        spf: ['The test message passed SPF for sender.example.'],
        dkim: ['The test message carried a passing DKIM signature (d=sender.example, selector s1).'],
        dmarc: ["The test message's From domain sender.example has a DMARC record: v=DMARC1; p=none"],
        alignment: ['The test message passed DMARC (SPF and DKIM aligned with sender.example).'],
        reverse_dns: ['The sending address 127.0.0.1 has forward-confirmed reverse DNS (mx.sender.example).'],
        tls: ['The test message was delivered over TLS (TLSv1.3).'],
        one_click_unsubscribe: ['The test message offers one-click unsubscribe (https://sender.example/u/1).'],
        message_format: ['The test message has a From, a Date and a Message-ID header.'],
        complaint_rate: [],
      });
      for (const r of v.requirements) for (const e of r.evidence) expect(e).toMatchObject({ source: 'mail_test', observedAt: RECEIVED.toISOString() });
      expect(v.sources.mail_test).toEqual({ state: 'used', observedAt: RECEIVED.toISOString(), summary: 'The test message received on 2026-03-08 scored 8.5 out of 10.' });
      expect(v.counts).toEqual({ met: 8, unmet: 0, unknown: 0, not_measurable: 1 });
    });

    it('is unmet for each thing a badly sent message lacks, saying what', () => {
      const a = analysisFixture();
      a.authentication.spf.mailFrom = { domain: 'bounce.esp.example', result: 'softfail', explanation: 'The address is not in the SPF record.' };
      a.authentication.dmarc = { ...a.authentication.dmarc, record: null, result: 'fail', spfAligned: false, dkimAligned: false };
      a.connection.reverseDns = { names: ['host.isp.example'], forwardConfirmed: false, confirmedName: null };
      a.headers.messageId = null;
      a.headers.date = null;
      const v = judge({ mailTest: test(a) });
      expect(statuses(v)).toMatchObject({
        spf: 'unmet',
        dkim: 'unmet',
        dmarc: 'unmet',
        alignment: 'unmet',
        reverse_dns: 'unmet',
        tls: 'unmet',
        one_click_unsubscribe: 'unmet',
        message_format: 'unmet',
      });
      const detail = (id: SenderRequirementId) => req(v, id).evidence[0]?.detail;
      expect(detail('spf')).toBe('The test message got SPF softfail for bounce.esp.example: The address is not in the SPF record.');
      expect(detail('dkim')).toBe('The test message carried no DKIM signature.');
      expect(detail('dmarc')).toBe("No DMARC record was found for the test message's From domain sender.example.");
      expect(detail('alignment')).toBe('The test message did not pass DMARC (result fail): neither SPF nor DKIM aligned with sender.example.');
      expect(detail('reverse_dns')).toBe('The sending address 127.0.0.1 has no forward-confirmed reverse DNS (its PTR host.isp.example does not resolve back to it).');
      expect(detail('tls')).toBe('The test message was delivered without TLS.');
      expect(detail('one_click_unsubscribe')).toBe(
        'The test message has no one-click unsubscribe: it lacks a List-Unsubscribe https address and List-Unsubscribe-Post: List-Unsubscribe=One-Click. Transactional mail is exempt; marketing and subscribed mail need it.',
      );
      expect(detail('message_format')).toBe('The test message has no Date and Message-ID header.');
      expect(req(v, 'one_click_unsubscribe').fix).toContain('Transactional mail');
      for (const r of v.requirements.filter((x) => x.status === 'unmet')) expect(r.fix, r.id).toEqual(expect.any(String));
    });

    it('names the failing DKIM signatures', () => {
      const a = goodAnalysis();
      a.authentication.dkim = [{ ...a.authentication.dkim[0]!, result: 'fail', reason: 'the body hash does not match' }];
      expect(req(judge({ mailTest: test(a) }), 'dkim').evidence[0]?.detail).toBe("None of the test message's DKIM signatures passed (d=sender.example s=s1: the body hash does not match).");
    });
  });

  it('combines the three sources, in the order DNS, mail flow, test message', () => {
    const v = judge({ dns: dns(), mailFlow: flow(), mailTest: test() });
    expect(req(v, 'spf').evidence.map((e) => [e.source, e.status])).toEqual([
      ['dns', 'met'],
      ['mail_flow', 'met'],
      ['mail_test', 'met'],
    ]);
    expect(req(v, 'dmarc').evidence.map((e) => e.source)).toEqual(['dns', 'mail_test']);
    expect(req(v, 'alignment').evidence.map((e) => e.source)).toEqual(['mail_flow', 'mail_test']);
    expect(req(v, 'reverse_dns').evidence.map((e) => e.source)).toEqual(['mail_flow', 'mail_test']);
    expect(req(v, 'tls').evidence.map((e) => e.source)).toEqual(['mail_test']);
    expect(v.counts).toEqual({ met: 8, unmet: 0, unknown: 0, not_measurable: 1 });
    expect([v.sources.dns.state, v.sources.mail_flow.state, v.sources.mail_test.state]).toEqual(['used', 'used', 'used']);
  });

  it('is unmet when sources conflict: a published record does not outweigh failing mail', () => {
    const v = judge({ dns: dns(), mailFlow: flow({ dkimPass: 300 }), mailTest: test() });
    const dkim = req(v, 'dkim');
    expect(dkim.status).toBe('unmet');
    expect(dkim.evidence.map((e) => e.status)).toEqual(['met', 'unmet', 'met']);
    expect(dkim.fix).toBe('Turn on DKIM signing at every service sending as shop.example and publish the keys they give you in DNS.');
    expect(v.counts).toEqual({ met: 7, unmet: 1, unknown: 0, not_measurable: 1 });
  });

  it('says which sources the plan leaves out, and how to get their evidence', () => {
    const v = judge({ dns: dns(), mailFlow: 'plan', mailTest: 'plan' });
    expect(v.sources.mail_flow).toEqual({ state: 'plan', summary: 'Mail flow reports are available on paid plans.' });
    expect(v.sources.mail_test).toEqual({ state: 'plan', summary: 'Test messages (Inbox Testing) are available on the Standard plan and above.' });
    expect(req(v, 'tls').fix).toBe('No evidence yet: upgrade to Standard to send a test message to Inbox Testing.');
    expect(req(v, 'alignment').fix).toBe('No evidence yet: upgrade to Standard to send a test message to Inbox Testing.');
  });
});
