import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportDocumentSchema, type ReportDocument, type ReportKind } from '@sendwell/contracts';
import { createLogger } from '@sendwell/server-kit';
import { createTestDb, type TestDb } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportBuilder } from '../src/generation/report-builder.js';
import { renderHtml } from '../src/render/html/render-html.js';
import { renderPdf } from '../src/render/pdf/render-pdf.js';
import { renderText } from '../src/render/text/render-text.js';
import { MailFlowSourceRepository } from '../src/repositories/mail-flow-source.repository.js';
import { ReportSourceRepository } from '../src/repositories/report-source.repository.js';
import { SenderRequirementsSourceRepository } from '../src/repositories/sender-requirements-source.repository.js';
import { factory, type Factory } from './factory.js';

/**
 * The mail-flow section from the intake's tables on real Postgres: the window's figures exact, rows
 * outside it (before, after, another domain's) left out, the plan deciding, and every format printing it.
 */

const NOW = new Date('2026-11-24T09:00:00Z');
/** The window: 2026-10-26 to 2026-11-24, both included. */
let t: TestDb;
let f: Factory;
let builder: ReportBuilder;
let source: ReportSourceRepository;
const scratch = mkdtempSync(join(tmpdir(), 'mail-flow-report-'));

beforeAll(async () => {
  t = await createTestDb();
  f = factory(t.db);
  source = new ReportSourceRepository(t.db);
  builder = new ReportBuilder(source, new MailFlowSourceRepository(t.db), new SenderRequirementsSourceRepository(t.db, createLogger('test', 'silent')));
  await f.mailFlowPartition('2026-10');
  await f.mailFlowPartition('2026-11');
});

afterAll(async () => {
  await t?.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function build(domainId: number, kind: ReportKind): Promise<ReportDocument> {
  const domain = await source.domain(domainId);
  const doc = await builder.build({ id: 7, type: kind }, domain!, kind, NOW);
  // What the JSON download is: the contract must accept it.
  return reportDocumentSchema.parse(JSON.parse(JSON.stringify(doc)));
}

async function pdfText(name: string, doc: ReportDocument): Promise<{ text: string; pages: number }> {
  const file = join(scratch, `${name}.pdf`);
  writeFileSync(file, await renderPdf(doc));
  const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))?.[1]);
  return { text: execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }), pages };
}

/** A paid domain with a month of reports: catalogue, host-named and unnamed senders, forwarding, TLS failures. */
async function domainWithMailFlow() {
  const user = await f.user('standard');
  const domain = await f.domain(user.id, { name: 'flow-shop.example' });
  await f.completedScan(domain.id, { at: new Date('2026-11-24T06:00:00Z') });
  const id = domain.id;

  await f.mailSource('192.0.2.1', 'mail-a.google.com', 'google-workspace');
  await f.mailSource('192.0.2.2', null, 'google-workspace');
  await f.mailSource('198.51.100.7', 'out.mailer.example', null);
  await f.mailSource('198.51.100.20', 'relay.improvmx.com', 'improvmx');
  // Google Workspace: 1,100 messages over two addresses and both months, 1,090 passing.
  await f.dmarcRecord(id, { day: '2026-11-20', ip: '192.0.2.1', messages: 900, spfAligned: true, dkimAligned: true });
  await f.dmarcRecord(id, { day: '2026-10-27', ip: '192.0.2.1', messages: 100, dkimAligned: true });
  await f.dmarcRecord(id, { day: '2026-11-21', ip: '192.0.2.1', messages: 10 });
  await f.dmarcRecord(id, { day: '2026-11-21', ip: '192.0.2.2', messages: 90, spfAligned: true });
  // A host without a catalogue service: 200, 150 passing.
  await f.dmarcRecord(id, { day: '2026-11-22', ip: '198.51.100.7', messages: 150, spfAligned: true });
  await f.dmarcRecord(id, { day: '2026-11-22', ip: '198.51.100.7', messages: 50 });
  // Unnamed addresses: 40 failing (spoofing), 30 relayed under the reporter's forwarding override.
  await f.dmarcRecord(id, { day: '2026-11-23', ip: '203.0.113.9', messages: 40 });
  await f.dmarcRecord(id, { day: '2026-11-23', ip: '203.0.113.10', messages: 30, override: 'forwarded' });
  // A catalogue forwarder failing alignment: forwarded, not failed.
  await f.dmarcRecord(id, { day: '2026-11-23', ip: '198.51.100.20', messages: 20 });
  // Ten small senders, one passing message each: 15 senders in all, the list keeps 10.
  for (let i = 100; i < 110; i++) await f.dmarcRecord(id, { day: '2026-11-24', ip: `192.0.2.${i}`, messages: 1, dkimAligned: true });
  // Outside the window: the day before it, the day after it.
  await f.dmarcRecord(id, { day: '2026-10-25', ip: '192.0.2.1', messages: 500, spfAligned: true });
  await f.dmarcRecord(id, { day: '2026-11-25', ip: '203.0.113.9', messages: 700 });

  await f.mailReport(id, { kind: 'aggregate', org: 'google.com', begin: '2026-11-19T00:00:00Z', end: '2026-11-20T00:00:00Z', policy: { domain: 'flow-shop.example', p: 'none', sp: null, pct: 100, testing: null } });
  await f.mailReport(id, { kind: 'aggregate', org: 'Yahoo', begin: '2026-11-22T00:00:00Z', end: '2026-11-23T00:00:00Z', policy: { domain: 'flow-shop.example', p: 'quarantine', sp: 'none', pct: 50, testing: true } });
  await f.mailReport(id, { kind: 'aggregate', org: 'old.example', begin: '2026-10-01T00:00:00Z', end: '2026-10-02T00:00:00Z', policy: { p: 'none' } });
  // A period after the report's day is not the policy "most recently" published as of the report.
  await f.mailReport(id, { kind: 'aggregate', org: 'future.example', begin: '2026-11-26T00:00:00Z', end: '2026-11-27T00:00:00Z', policy: { p: 'reject' } });
  await f.mailReport(id, { kind: 'tls', org: 'google.com', begin: '2026-11-20T00:00:00Z', end: '2026-11-21T00:00:00Z' });

  await f.tlsResult(id, { day: '2026-11-20', resultType: 'success', sessions: 500 });
  await f.tlsResult(id, { day: '2026-11-21', resultType: 'certificate-expired', sessions: 12 });
  await f.tlsResult(id, { day: '2026-11-22', resultType: 'starttls-not-supported', sessions: 30 });
  await f.tlsResult(id, { day: '2026-11-22', resultType: 'starttls-not-supported', sessions: 3, mxHost: 'mx2.example.test' });
  await f.tlsResult(id, { day: '2026-11-22', resultType: 'validation-failure', sessions: 1 });
  await f.tlsResult(id, { day: '2026-10-20', resultType: 'sts-policy-fetch-error', sessions: 99 });

  // Another domain's mail, same days and addresses: none of it counts.
  const other = await f.domain(user.id);
  await f.dmarcRecord(other.id, { day: '2026-11-20', ip: '192.0.2.1', messages: 5000, spfAligned: true });
  await f.tlsResult(other.id, { day: '2026-11-20', resultType: 'certificate-expired', sessions: 800 });
  return { user, domain };
}

let withFlow: Awaited<ReturnType<typeof domainWithMailFlow>>;
beforeAll(async () => {
  withFlow = await domainWithMailFlow();
});

describe('the mail-flow section', () => {
  it('sums the window exactly: totals, the ten busiest senders by name, the newest policy and TLS-RPT', async () => {
    const doc = await build(withFlow.domain.id, 'full');
    expect(doc.mailFlow).toEqual({
      from: '2026-10-26',
      to: '2026-11-24',
      reports: 2,
      messages: 1400,
      dmarcPass: 1250,
      dmarcFail: 100,
      forwarded: 50,
      passRate: 0.8929,
      senderCount: 15,
      senders: [
        { name: 'Google Workspace', serviceId: 'google-workspace', addresses: 2, messages: 1100, dmarcPass: 0.9909 },
        { name: 'out.mailer.example', serviceId: null, addresses: 1, messages: 200, dmarcPass: 0.75 },
        { name: '203.0.113.9', serviceId: null, addresses: 1, messages: 40, dmarcPass: 0 },
        { name: '203.0.113.10', serviceId: null, addresses: 1, messages: 30, dmarcPass: 0 },
        { name: 'ImprovMX', serviceId: 'improvmx', addresses: 1, messages: 20, dmarcPass: 0 },
        ...[100, 101, 102, 103, 104].map((i) => ({ name: `192.0.2.${i}`, serviceId: null, addresses: 1, messages: 1, dmarcPass: 1 })),
      ],
      policy: { p: 'quarantine', sp: 'none', pct: 50, testing: true, reporter: 'Yahoo', reportedAt: '2026-11-23T00:00:00.000Z' },
      tls: {
        reports: 1,
        successfulSessions: 500,
        failedSessions: 46,
        failures: [
          { resultType: 'starttls-not-supported', sessions: 33 },
          { resultType: 'certificate-expired', sessions: 12 },
          { resultType: 'validation-failure', sessions: 1 },
        ],
      },
    });
  });

  it('prints the section in text, HTML and PDF', async () => {
    const doc = await build(withFlow.domain.id, 'full');
    const text = renderText(doc);
    const flat = text.replace(/\s+/g, ' ');
    expect(text).toContain('Mail flow\n=========');
    expect(flat).toContain('Mail flow, last 30 days: 1,400 messages reported, 89.3% passing DMARC.');
    expect(flat).toContain('1,250 passed DMARC, 100 failed, 50 forwarded (relayed by forwarders or lists, not counted as failures); from 2 aggregate reports.');
    expect(flat).toContain('Published DMARC policy: p=quarantine; sp=none; pct=50; t=y (testing: receivers apply one step less), reported by Yahoo for the period to 23 Nov 2026.');
    expect(text).toContain('Top senders (10 of 15)');
    expect(text).toMatch(/^Google Workspace\s+1,100\s+99\.1%$/m);
    expect(text).toMatch(/^out\.mailer\.example\s+200\s+75%$/m);
    expect(text).toMatch(/^ImprovMX\s+20\s+0%$/m);
    expect(text).not.toContain('192.0.2.105');
    expect(flat).toContain('500 successful and 46 failed TLS sessions, from 1 TLS-RPT report.');
    expect(text).toMatch(/^starttls-not-supported\s+33$/m);
    expect(text).toMatch(/^certificate-expired\s+12$/m);
    // Before the trends, after the blacklists.
    expect(text.indexOf('Blacklists')).toBeLessThan(text.indexOf('Mail flow\n'));
    expect(text.indexOf('Mail flow\n')).toBeLessThan(text.indexOf('Trends\n'));

    const html = renderHtml(doc);
    expect(html).toContain('<h2>Mail flow</h2>');
    expect(html).toContain('<td>Google Workspace</td><td>1,100</td><td>99.1%</td>');
    expect(html).toContain('<code>p=quarantine; sp=none; pct=50; t=y</code>');
    expect(html).toContain('<td><code>starttls-not-supported</code></td><td>33</td>');

    const pdf = await pdfText('full', doc);
    for (const expected of ['Mail flow, last 30 days: 1,400 messages reported, 89.3% passing DMARC.', 'Top senders (10 of 15)', '500 successful and 46 failed TLS sessions']) {
      expect(pdf.text.replace(/\s+/g, ' '), expected).toContain(expected);
    }
    expect(pdf.text).toMatch(/Google Workspace\s+1,100\s+99\.1%/);
    expect(pdf.text).toMatch(/out\.mailer\.example\s+200\s+75%/);
    expect(pdf.text).toMatch(/starttls-not-supported\s+33/);
  });

  it('keeps a summary to one line of totals', async () => {
    const doc = await build(withFlow.domain.id, 'summary');
    expect(doc.mailFlow).toEqual({
      from: '2026-10-26',
      to: '2026-11-24',
      reports: 2,
      messages: 1400,
      dmarcPass: 1250,
      dmarcFail: 100,
      forwarded: 50,
      passRate: 0.8929,
      senderCount: 0,
      senders: [],
      policy: null,
      tls: null,
    });
    const line = 'Mail flow, last 30 days: 1,400 messages reported, 89.3% passing DMARC.';
    const text = renderText(doc);
    expect(text.split('\n').filter((l) => /Mail flow|Top senders|TLS reporting/.test(l))).toEqual([line]);
    expect(renderHtml(doc)).toContain(`<p>${line}</p>`);
    const pdf = await pdfText('summary', doc);
    expect(pdf.pages).toBe(1);
    expect(pdf.text.replace(/\s+/g, ' ')).toContain(line);
    expect(pdf.text).not.toContain('Top senders');
  });

  it('is null without reports in the window, and the report reads as it did before', async () => {
    const user = await f.user('advanced');
    const domain = await f.domain(user.id, { name: 'quiet-shop.example' });
    await f.completedScan(domain.id, { at: new Date('2026-11-24T06:00:00Z') });
    // Only mail before the window.
    await f.dmarcRecord(domain.id, { day: '2026-10-25', ip: '192.0.2.77', messages: 50, spfAligned: true });
    await f.mailReport(domain.id, { kind: 'aggregate', org: 'google.com', begin: '2026-10-24T00:00:00Z', end: '2026-10-25T00:00:00Z', policy: { p: 'none' } });
    for (const kind of ['full', 'summary'] as const) {
      const doc = await build(domain.id, kind);
      expect(doc.mailFlow).toBeNull();
      // A document stored before the section existed has no key at all: both print the same.
      const { mailFlow: _mailFlow, ...before } = doc;
      expect(reportDocumentSchema.parse(before).mailFlow).toBeUndefined();
      expect(renderText(doc)).toBe(renderText(before));
      expect(renderHtml(doc)).toBe(renderHtml(before));
      expect(renderText(doc)).not.toMatch(/mail flow|senders|TLS-RPT/i);
      const pdf = await pdfText(`quiet-${kind}`, doc);
      expect(pdf.text).not.toContain('Mail flow');
    }
  });

  it('is null on a plan without mail flow, whatever is stored', async () => {
    const free = await f.user('free');
    const domain = await f.domain(free.id);
    await f.dmarcRecord(domain.id, { day: '2026-11-20', ip: '192.0.2.1', messages: 10, spfAligned: true });
    await f.mailReport(domain.id, { kind: 'aggregate', org: 'google.com', begin: '2026-11-19T00:00:00Z', end: '2026-11-20T00:00:00Z', policy: { p: 'none' } });
    expect((await build(domain.id, 'full')).mailFlow).toBeNull();
  });

  it('has the section with TLS only and no aggregate report: zero messages, no policy', async () => {
    const user = await f.user('basic');
    const domain = await f.domain(user.id);
    await f.mailReport(domain.id, { kind: 'tls', org: 'microsoft.com', begin: '2026-11-10T00:00:00Z', end: '2026-11-11T00:00:00Z' });
    await f.tlsResult(domain.id, { day: '2026-11-10', resultType: 'success', sessions: 80 });
    const doc = await build(domain.id, 'full');
    expect(doc.mailFlow).toMatchObject({ reports: 0, messages: 0, passRate: null, senderCount: 0, senders: [], policy: null, tls: { reports: 1, successfulSessions: 80, failedSessions: 0, failures: [] } });
    const flat = renderText(doc).replace(/\s+/g, ' ');
    expect(flat).toContain('Mail flow, last 30 days: no messages reported.');
    expect(flat).toContain('Published DMARC policy: no aggregate report has said yet.');
    expect(flat).toContain('No sender reported.');
    expect(flat).toContain('80 successful and 0 failed TLS sessions, from 1 TLS-RPT report.');
  });
});
