import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportDocumentSchema, type ReportDocument, type ReportKind, type SenderRequirements } from '@sendwell/contracts';
import { createLogger } from '@sendwell/server-kit';
import { createTestDb, type TestDb } from '@sendwell/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ReportBuilder } from '../src/generation/report-builder.js';
import { renderHtml } from '../src/render/html/render-html.js';
import { renderPdf } from '../src/render/pdf/render-pdf.js';
import { sampleSenderRequirements } from '../src/render/sample-document.js';
import { renderText } from '../src/render/text/render-text.js';
import { MailFlowSourceRepository } from '../src/repositories/mail-flow-source.repository.js';
import { ReportSourceRepository } from '../src/repositories/report-source.repository.js';
import { SenderRequirementsSourceRepository } from '../src/repositories/sender-requirements-source.repository.js';
import { factory, type Factory } from './factory.js';

/**
 * The sender requirements section from the verdict the intake keeps, on real Postgres: read as stored
 * (its snake_case keys intact), the plan deciding, a stored row the contract rejects left out and
 * logged, and every format printing it.
 */

const NOW = new Date('2026-11-24T09:00:00Z');
const EVALUATED = '2026-11-24T07:15:00.000Z';
/** Markup in an evidence detail, as a DNS record can carry it. */
const HOSTILE_DETAIL = 'shop.example publishes v=spf1 include:<script>alert("sr")</script> & ~all.';

let t: TestDb;
let f: Factory;
let builder: ReportBuilder;
let source: ReportSourceRepository;
let logged: Array<Record<string, unknown>> = [];
const scratch = mkdtempSync(join(tmpdir(), 'sender-requirements-report-'));

beforeAll(async () => {
  t = await createTestDb();
  f = factory(t.db);
  source = new ReportSourceRepository(t.db);
  const logger = createLogger('reports-test', 'warn', { write: (line: string) => void logged.push(JSON.parse(line) as Record<string, unknown>) });
  builder = new ReportBuilder(source, new MailFlowSourceRepository(t.db), new SenderRequirementsSourceRepository(t.db, logger));
});

beforeEach(() => {
  logged = [];
});

afterAll(async () => {
  await t?.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function build(domainId: number, kind: ReportKind): Promise<ReportDocument> {
  const domain = await source.domain(domainId);
  const doc = await builder.build({ id: 9, type: kind }, domain!, kind, NOW);
  // What the JSON download is: the contract must accept it.
  return reportDocumentSchema.parse(JSON.parse(JSON.stringify(doc)));
}

async function pdfText(name: string, doc: ReportDocument): Promise<{ text: string; pages: number }> {
  const file = join(scratch, `${name}.pdf`);
  writeFileSync(file, await renderPdf(doc));
  const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))?.[1]);
  return { text: execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }), pages };
}

const flat = (s: string) => s.replace(/\s+/g, ' ');

/** The row as the intake's judge keeps it: the whole verdict as JSON. */
async function storeVerdict(domainId: number, verdict: unknown): Promise<void> {
  await t.db.insertInto('senderRequirementVerdicts').values({ domainId, verdict: JSON.stringify(verdict), evaluatedAt: new Date(EVALUATED) }).execute();
}

async function domainOn(plan: string, name?: string) {
  const user = await f.user(plan);
  const domain = await f.domain(user.id, name ? { name } : {});
  await f.completedScan(domain.id, { at: new Date('2026-11-24T06:00:00Z') });
  return domain;
}

let judged: { domain: { id: number; name: string }; verdict: SenderRequirements };
beforeAll(async () => {
  const domain = await domainOn('standard', 'judged-shop.example');
  const verdict = sampleSenderRequirements({ domainId: domain.id, domainName: domain.name, evaluatedAt: EVALUATED, spfDetail: HOSTILE_DETAIL });
  await storeVerdict(domain.id, verdict);
  // Another domain's verdict, all unmet: none of it is this report's.
  const other = await domainOn('standard');
  const otherVerdict = sampleSenderRequirements({ domainId: other.id, domainName: other.name, evaluatedAt: EVALUATED });
  await storeVerdict(other.id, { ...otherVerdict, requirements: otherVerdict.requirements.map((r) => ({ ...r, status: 'unmet' })), counts: { met: 0, unmet: 9, unknown: 0, not_measurable: 0 } });
  judged = { domain, verdict };
});

describe('the sender requirements section', () => {
  it('is the verdict kept for the domain, exactly as judged', async () => {
    const doc = await build(judged.domain.id, 'full');
    expect(doc.senderRequirements).toEqual(judged.verdict);
    // The JSON's own snake_case keys come back as stored.
    expect(doc.senderRequirements?.sources.mail_flow).toEqual({ state: 'used', observedAt: '2026-11-24T00:00:00.000Z', summary: '38 aggregate and 9 TLS-RPT reports in the last 30 days.' });
    expect(doc.senderRequirements?.counts).toEqual({ met: 6, unmet: 1, unknown: 1, not_measurable: 1 });
    expect(logged).toEqual([]);
  });

  it('prints every requirement with its status, evidence and fix in text, HTML and PDF', async () => {
    const doc = await build(judged.domain.id, 'full');
    const counts = 'Sender requirements (Gmail, Yahoo, Microsoft): 6 met, 1 not met, 1 unknown, 1 not measurable.';
    const evidence = `DNS scan: ${HOSTILE_DETAIL} (met, 24 Nov 2026)`;
    const unsubscribe = 'Test message: The test message had List-Unsubscribe with a mailto address only, and no List-Unsubscribe-Post header. (not met, 24 Nov 2026)';
    const fix = 'Fix: Add an https List-Unsubscribe address and List-Unsubscribe-Post: List-Unsubscribe=One-Click to marketing mail (your sending service has a setting for it).';

    const text = renderText(doc);
    expect(text).toContain('Sender requirements\n===================');
    for (const expected of [counts, 'Judged 24 Nov 2026 07:15 UTC from the DNS scan, the mail flow reports and the latest test message.', evidence, unsubscribe, fix, 'To find out: Send a test message to your inbox-placement address to check its headers.', 'Test message: No test message in the last 30 days.', 'Asked by Gmail and Yahoo.']) {
      expect(flat(text), expected).toContain(expected);
    }
    for (const heading of ['SPF: Met', 'One-click unsubscribe: Not met', 'Message format: Unknown', 'Spam complaint rate: Not measurable']) expect(text).toContain(`\n${heading}\n`);
    // The complaint rate names where the providers show it.
    expect(text).toMatch(/Spam complaint rate: Not measurable[\s\S]*Where to read it:\n\s+Google Postmaster Tools: https:\/\/postmaster\.google\.com\/\n\s+Yahoo Sender Hub: https:\/\/senders\.yahooinc\.com\/\n\s+Microsoft SNDS: https:\/\/sendersupport\.olc\.protection\.outlook\.com\/snds\//);
    // No fix line for a met requirement.
    expect(text.slice(text.indexOf('\nSPF: Met'), text.indexOf('\nDKIM: Met'))).not.toContain('Fix:');
    // After the blacklists, before the trends; lines within the width but for unbreakable URLs.
    expect(text.indexOf('Blacklists\n')).toBeLessThan(text.indexOf('Sender requirements\n'));
    expect(text.indexOf('Sender requirements\n')).toBeLessThan(text.indexOf('Trends\n'));
    expect(text.split('\n').every((l) => l.length <= 78 || /\S{40,}/.test(l))).toBe(true);

    const html = renderHtml(doc);
    expect(html).toContain('<h2>Sender requirements</h2>');
    expect(html).toContain(`<p><strong>${counts}</strong></p>`);
    expect(html).not.toContain('<script>');
    expect(html).toContain('<strong>DNS scan:</strong> shop.example publishes v=spf1 include:&lt;script&gt;alert(&quot;sr&quot;)&lt;/script&gt; &amp; ~all. <span class="muted">(met, 24 Nov 2026)</span>');
    for (const [id, word] of [['spf', 'Met'], ['one_click_unsubscribe', 'Not met'], ['message_format', 'Unknown'], ['complaint_rate', 'Not measurable']] as const) {
      expect(html).toMatch(new RegExp(`<h3 id="requirement-${id}">[^<]+ <span class="status" style="background:#[0-9a-f]{6}">${word}</span></h3>`));
    }
    expect(html).toContain('<strong>Fix:</strong> Add an https List-Unsubscribe address');
    expect(html).toContain('Where to read it: <a href="https://postmaster.google.com/">Google Postmaster Tools</a>, <a href="https://senders.yahooinc.com/">Yahoo Sender Hub</a>, <a href="https://sendersupport.olc.protection.outlook.com/snds/">Microsoft SNDS</a>');

    const pdf = await pdfText('full', doc);
    for (const expected of [counts, evidence, unsubscribe, fix, 'Where to read it: Google Postmaster Tools (https://postmaster.google.com/)']) {
      expect(flat(pdf.text), expected).toContain(expected);
    }
    // The status pills sit beside the titles.
    for (const row of [/SPF\s+Met/, /DMARC alignment\s+Met/, /One-click unsubscribe\s+Not met/, /Message format\s+Unknown/, /Spam complaint rate\s+Not measurable/]) expect(pdf.text).toMatch(row);
    expect(pdf.text.indexOf('Sender requirements')).toBeLessThan(pdf.text.indexOf('Trends'));
  });

  it('keeps a summary to the counts line', async () => {
    const doc = await build(judged.domain.id, 'summary');
    expect(doc.senderRequirements).toEqual(judged.verdict);
    const line = 'Sender requirements (Gmail, Yahoo, Microsoft): 6 met, 1 not met, 1 unknown, 1 not measurable.';
    const text = renderText(doc);
    expect(flat(text)).toContain(line);
    expect(text).not.toMatch(/One-click unsubscribe|DNS scan:|Where to read it/);
    const html = renderHtml(doc);
    expect(html).toContain(`<p>${line}</p>`);
    expect(html).not.toMatch(/Sender requirements<\/h2>|One-click unsubscribe|include:&lt;script/);
    const pdf = await pdfText('summary', doc);
    expect(pdf.pages).toBe(1);
    expect(flat(pdf.text)).toContain(line);
    expect(pdf.text).not.toMatch(/One-click unsubscribe|DNS scan:/);
  });

  it('is null when the domain was never judged, and the report reads as it did before', async () => {
    const domain = await domainOn('advanced');
    for (const kind of ['full', 'summary'] as const) {
      const doc = await build(domain.id, kind);
      expect(doc.senderRequirements).toBeNull();
      // A document stored before the section existed has no key at all: both print the same.
      const { senderRequirements: _senderRequirements, ...before } = doc;
      expect(reportDocumentSchema.parse(before).senderRequirements).toBeUndefined();
      expect(renderText(doc)).toBe(renderText(before));
      expect(renderHtml(doc)).toBe(renderHtml(before));
      expect(renderText(doc)).not.toContain('Sender requirements');
      expect((await pdfText(`unjudged-${kind}`, doc)).text).not.toContain('Sender requirements');
    }
  });

  it('is null on a plan without sender requirements, whatever is stored', async () => {
    for (const plan of ['free', 'onetime']) {
      const domain = await domainOn(plan);
      await storeVerdict(domain.id, sampleSenderRequirements({ domainId: domain.id, domainName: domain.name, evaluatedAt: EVALUATED }));
      const doc = await build(domain.id, 'full');
      expect(doc.senderRequirements, plan).toBeNull();
      expect(renderText(doc)).not.toContain('Sender requirements');
    }
  });

  it('leaves out a stored verdict the contract does not accept, and logs it', async () => {
    const domain = await domainOn('basic');
    const verdict = sampleSenderRequirements({ domainId: domain.id, domainName: domain.name, evaluatedAt: EVALUATED });
    // A status this version does not know, as a newer intake might write.
    await storeVerdict(domain.id, { ...verdict, requirements: verdict.requirements.map((r, i) => (i === 0 ? { ...r, status: 'partly_met' } : r)) });
    const doc = await build(domain.id, 'full');
    expect(doc.senderRequirements).toBeNull();
    expect(renderText(doc)).not.toContain('Sender requirements');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 40, domainId: domain.id, msg: expect.stringContaining('sender requirements verdict') });
    expect(JSON.stringify(logged[0]!.issues)).toContain('requirements');
  });
});
