import { reportDocumentSchema, REPUTATION_PART_WEIGHTS } from '@sendwell/contracts';
import { describe, expect, it } from 'vitest';
import { sampleSenderRequirements } from '../render/sample-document.js';
import { buildReport, type ReportSource } from './build-report.js';

const at = new Date('2026-11-24T09:00:00Z');

function source(overrides: Partial<ReportSource> = {}): ReportSource {
  return {
    reportId: 1,
    reportType: 'full',
    kind: 'full',
    generatedAt: at,
    domain: { id: 3, name: 'shop.example', status: 'warning' },
    scan: { id: 'scan-1', completedAt: at, trigger: 'scheduled', snapshot: null },
    checks: [
      { type: 'spf', status: 'valid', value: null, message: 'SPF ok', recommendation: null, details: { record: 'v=spf1 -all' } },
      {
        type: 'dmarc',
        status: 'warning',
        value: null,
        message: 'DMARC policy is none',
        recommendation: 'Publish quarantine',
        details: {
          record: 'v=DMARC1; p=none',
          findings: [
            { code: 'DMARC_NO_RUA', severity: 'info', message: 'No aggregate reports.' },
            { code: 'DMARC_POLICY_NONE', severity: 'warning', message: 'p=none delivers failing mail.', rfc: 'RFC 7489 §6.3', recommendation: 'Move to quarantine.' },
          ],
        },
      },
      { type: 'blacklist', status: 'error', value: null, message: 'Listed on 1', recommendation: null, details: { sites: [{ name: 'ZEN', status: 'listed' }, { name: 'B', status: 'clean' }, { name: 'C', status: 'odd' }] } },
      { type: 'not_a_check', status: 'valid', value: null, message: null, recommendation: null, details: {} },
    ],
    reputation: {
      score: 61,
      trend: 'declining',
      previousScore: 70,
      factors: {
        weightedScores: { emailAuthentication: 31, securityDeliverability: 20, configurationHealth: 10 },
        emailAuthentication: { spf: 13, dkim: 13, dmarc: 7 },
        securityDeliverability: { blacklist: { score: 6 }, ssl: 10, spoofingProtection: 3 },
        configurationHealth: { dnsPerformance: 10, mailRouting: 6, nameServers: 0 },
      },
    },
    windowDays: 90,
    days: [{ day: '2026-11-20', score: 65, status: 'warning', checks: { spf: 'valid', bogus: 'valid', dkim: 'weird' } }],
    scansInWindow: 12,
    dnsChanges: [{ at: new Date('2026-11-21T00:00:00Z'), changes: [{ record: 'DMARC', impact: 'weakens', summary: 'DMARC policy downgraded' }, { nonsense: true }] }],
    mailFlow: null,
    senderRequirements: null,
    ...overrides,
  };
}

describe('buildReport', () => {
  it('builds a document the contract accepts, checks by impact, findings by severity', () => {
    const doc = reportDocumentSchema.parse(buildReport(source()));
    expect(doc.checks.map((c) => c.type)).toEqual(['blacklist', 'dmarc', 'spf']);
    expect(doc.checks[1]!.findings.map((f) => f.code)).toEqual(['DMARC_POLICY_NONE', 'DMARC_NO_RUA']);
    expect(doc.checks[1]!.findings[0]).toMatchObject({ rfc: 'RFC 7489 §6.3', fix: 'Move to quarantine.' });
    expect(doc.checks[1]!.published).toEqual([{ label: 'TXT _dmarc.shop.example', value: 'v=DMARC1; p=none' }]);
    expect(doc.checks[0]!.points).toEqual({ earned: 6, max: REPUTATION_PART_WEIGHTS.blacklist });
    expect(doc.overall).toMatchObject({ score: 61, label: 'Good', trend: 'declining', previousScore: 70 });
    expect(doc.overall.breakdown?.emailAuthentication).toEqual({ score: 31, max: 40 });
    expect(doc.blacklist?.counts).toEqual({ listed: 1, clean: 1, unknown: 1 });
  });

  it('publishes a DKIM key under the signing domain the reports saw it sign for', () => {
    const dkim = {
      type: 'dkim',
      status: 'valid',
      value: null,
      message: 'DKIM ok',
      recommendation: null,
      details: { records: [{ selector: 'google', record: 'v=DKIM1; p=AAAA' }, { selector: 's1', record: 'v=DKIM1; p=BBBB', signingDomain: 'mail.shop.example' }] },
    };
    const doc = reportDocumentSchema.parse(buildReport(source({ checks: [dkim] })));
    expect(doc.checks[0]!.published.map((p) => p.label)).toEqual(['TXT google._domainkey.shop.example', 'TXT s1._domainkey.mail.shop.example']);
  });

  it('ranks actions failures first, then by expected gain from the part weights', () => {
    const doc = buildReport(source());
    expect(doc.actions.map((a) => [a.check, a.expectedGain])).toEqual([
      ['blacklist', 4],
      ['dmarc', 7],
      ['dmarc', 4],
      ['dns_performance', 3],
    ]);
    expect(doc.actions.map((a) => a.rank)).toEqual([1, 2, 3, 4]);
    expect(doc.actions[1]).toMatchObject({ title: 'DMARC: p=none delivers failing mail.', detail: 'Move to quarantine.', guidePath: '/fixing-guide/shop.example/dmarc' });
    expect(doc.summary).toBe('shop.example scores 61/100 (Good), with Blacklists failing. Fixing the top 3 actions is expected to add about 15 points.');
  });

  it('draws every day of the window, with gaps, and keeps only known check statuses and DNS changes', () => {
    const doc = buildReport(source());
    expect(doc.trends?.points).toHaveLength(90);
    expect(doc.trends?.points.at(-1)?.day).toBe('2026-11-24');
    expect(doc.trends?.points.at(0)?.day).toBe('2026-08-27');
    expect(doc.trends?.points.find((p) => p.day === '2026-11-20')).toEqual({ day: '2026-11-20', score: 65, status: 'warning', checks: { spf: 'valid' } });
    expect(doc.trends?.points.find((p) => p.day === '2026-11-21')).toEqual({ day: '2026-11-21', score: null, status: null, checks: {} });
    expect(doc.trends?.dnsChanges).toEqual([{ at: '2026-11-21T00:00:00.000Z', record: 'DMARC', impact: 'weakens', summary: 'DMARC policy downgraded' }]);
  });

  it('keeps a summary to the top three actions without checks or charts', () => {
    const doc = reportDocumentSchema.parse(buildReport(source({ kind: 'summary', reportType: 'summary' })));
    expect(doc.actions).toHaveLength(3);
    expect(doc).toMatchObject({ checks: [], blacklist: null, trends: null });
  });

  it('says so when the domain has no scan or no score yet', () => {
    const doc = reportDocumentSchema.parse(buildReport(source({ scan: null, checks: [], reputation: null })));
    expect(doc.summary).toBe('shop.example has no completed scan yet. Run a scan, then generate this report again.');
    expect(doc.overall).toMatchObject({ score: null, label: null, breakdown: null });
    expect(doc.actions).toEqual([]);
  });

  it('names senders by service, host or address, and reads only a valid published policy', () => {
    const doc = reportDocumentSchema.parse(
      buildReport(
        source({
          mailFlow: {
            window: { from: '2026-10-26', to: '2026-11-24' },
            reports: { aggregate: 1, tls: 0 },
            totals: { pass: 9, fail: 3, forwarded: 0 },
            sources: [
              { ip: '192.0.2.1', host: 'a.mail.example', serviceId: 'not-in-catalogue', messages: 4, pass: 4 },
              { ip: '192.0.2.2', host: 'a.mail.example', serviceId: null, messages: 4, pass: 2 },
              { ip: '192.0.2.3', host: null, serviceId: 'amazon-ses', messages: 3, pass: 3 },
              { ip: '192.0.2.4', host: null, serviceId: null, messages: 1, pass: 0 },
            ],
            policy: { published: { p: 'REJECT', sp: 'bogus', pct: 250, testing: 'y' }, reporter: 'Mail.ru', periodEnd: new Date('2026-11-23T00:00:00Z') },
            tls: null,
          },
        }),
      ),
    );
    expect(doc.mailFlow?.senders).toEqual([
      { name: 'a.mail.example', serviceId: null, addresses: 2, messages: 8, dmarcPass: 0.75 },
      { name: 'Amazon SES', serviceId: 'amazon-ses', addresses: 1, messages: 3, dmarcPass: 1 },
      { name: '192.0.2.4', serviceId: null, addresses: 1, messages: 1, dmarcPass: 0 },
    ]);
    expect(doc.mailFlow?.passRate).toBe(0.75);
    expect(doc.mailFlow?.policy).toEqual({ p: 'reject', sp: null, pct: null, testing: false, reporter: 'Mail.ru', reportedAt: '2026-11-23T00:00:00.000Z' });
    expect(buildReport(source()).mailFlow).toBeNull();
  });

  it('carries the stored sender requirements verdict whole, in a summary too, and null without one', () => {
    const verdict = sampleSenderRequirements({ domainId: 3, domainName: 'shop.example', evaluatedAt: '2026-11-24T08:00:00.000Z' });
    for (const kind of ['full', 'summary'] as const) {
      const doc = reportDocumentSchema.parse(buildReport(source({ kind, reportType: kind, senderRequirements: verdict })));
      expect(doc.senderRequirements).toEqual(verdict);
      expect(doc.senderRequirements?.counts).toEqual({ met: 6, unmet: 1, unknown: 1, not_measurable: 1 });
    }
    const without = reportDocumentSchema.parse(buildReport(source()));
    expect(without.senderRequirements).toBeNull();
  });
});
