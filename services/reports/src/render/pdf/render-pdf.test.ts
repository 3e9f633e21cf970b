import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { edgeReportDocument } from '../edge-document.js';
import { sampleReportDocument } from '../sample-document.js';
import { renderPdf } from './render-pdf.js';

/** The PDF read back with poppler: text, page count, fonts and every page drawn to an image. */

const dir = mkdtempSync(join(tmpdir(), 'report-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function write(name: string, pdf: Promise<Buffer>): Promise<string> {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, await pdf);
  return file;
}
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8' });
const pages = (file: string) => Number(/Pages:\s+(\d+)/.exec(run('pdfinfo', [file]))?.[1]);

describe('renderPdf', () => {
  it('writes the full report: every section, real fonts embedded, an outline and page numbers', async () => {
    const doc = sampleReportDocument({ kind: 'full', days: 90 });
    const file = await write('full', renderPdf(doc, { appUrl: 'https://app.sendwell.test' }));
    const text = run('pdftotext', ['-layout', file, '-']);
    for (const expected of ['example-shop.com', '71/100 (Good)', 'Email authentication', '30.8 / 40', 'Action plan', 'Get 203.0.113.25 removed from Spamhaus ZEN', '+5.2 points', 'SPF_TOO_MANY_LOOKUPS', 'RFC 7208 §4.6.4', 'Fix: Remove includes', 'Blacklists', 'Spamhaus ZEN', 'Listed', 'Last 30 days', 'Last 90 days', 'Overall status', 'DMARC policy downgraded from quarantine to none', 'Sender requirements', 'One-click unsubscribe', 'Not met', 'Page 1 of']) {
      expect(text, expected).toContain(expected);
    }
    for (const c of doc.checks) expect(text).toContain(c.title);
    const info = run('pdfinfo', [file]);
    expect(info).toContain('Title:           Sendwell report for example-shop.com');
    expect(info).toContain('Author:          Sendwell');
    const count = pages(file);
    expect(count).toBeGreaterThanOrEqual(4);
    expect(text).toContain(`Page ${count} of ${count}`);
    const fonts = run('pdffonts', [file]).split('\n').slice(2).filter(Boolean);
    expect(fonts.length).toBe(2);
    for (const line of fonts) expect(line).toMatch(/Inter-(Regular|Bold)\s+CID TrueType\s+Identity-H\s+yes yes yes/);
    // The outline: its items are in the file as /Title strings under /Outlines.
    const raw = (await renderPdf(doc, { appUrl: 'https://app.sendwell.test' })).toString('latin1');
    expect(raw).toContain('/Outlines');
    for (const section of ['Overview', 'Action plan', 'Checks', 'Blacklists', 'Sender requirements', 'Trends']) expect(raw).toContain(`(${section})`);
    // The guide links are link annotations.
    expect(raw).toContain('https://app.sendwell.test/fixing-guide/example-shop.com/spf');

    // Every page drawn: kept in /tmp/report-pdf-pages for review.
    const out = '/tmp/report-pdf-pages';
    mkdirSync(out, { recursive: true });
    run('pdftoppm', ['-png', '-r', '60', file, join(out, 'full')]);
    const images = readdirSync(out).filter((f) => f.startsWith('full-') && f.endsWith('.png'));
    expect(images).toHaveLength(count);
    for (const image of images) expect(statSync(join(out, image)).size).toBeGreaterThan(5_000);
  });

  it('fits the summary on one page with the top three actions', async () => {
    const file = await write('summary', renderPdf(sampleReportDocument({ kind: 'summary' }), { appUrl: 'https://app.sendwell.test' }));
    expect(pages(file)).toBe(1);
    const text = run('pdftotext', ['-layout', file, '-']);
    expect(text).toContain('What to fix first');
    expect(text).toContain('Move DMARC from p=none to p=quarantine');
    expect(text).not.toContain('Speed up your slowest name server');
    expect(text).not.toContain('Blacklists');
  });

  it('survives a document at the edges: no scan, no score, empty lists, a 3,000-character record', async () => {
    const file = await write('edge', renderPdf(edgeReportDocument()));
    expect(pages(file)).toBeGreaterThanOrEqual(2);
    const text = run('pdftotext', [file, '-']);
    expect(text).toContain('bücher-shop.example');
    expect(text).toContain('No score yet');
    expect(text).toContain('Nothing to fix');
    expect(text).toContain('include:a-very-long-include-name.example.com');
  });
});
