import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeReportDocument, HOSTILE } from '../edge-document.js';
import { sampleReportDocument } from '../sample-document.js';
import { renderHtml } from './render-html.js';

const SHOTS = '/tmp/report-html';
let browser: Browser;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: process.env.PLAYWRIGHT_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

describe('renderHtml', () => {
  it('has every section of the full report, charts as inline SVG and nothing to fetch', () => {
    const doc = sampleReportDocument({ kind: 'full', days: 90 });
    const html = renderHtml(doc, { appUrl: 'https://app.sendwell.test' });
    for (const expected of ['<html lang="en">', 'example-shop.com', '71/100 (Good)', 'Action plan', 'Get 203.0.113.25 removed from Spamhaus ZEN', '+5.2 points', 'SPF_TOO_MANY_LOOKUPS', 'RFC 7208 §4.6.4', 'Spamhaus ZEN', 'Last 30 days', 'Last 90 days', 'Overall status', 'DMARC policy downgraded from quarantine to none', 'href="https://app.sendwell.test/fixing-guide/example-shop.com/spf"', '<h2>Sender requirements</h2>', 'id="requirement-one_click_unsubscribe"']) {
      expect(html, expected).toContain(expected);
    }
    for (const c of doc.checks) expect(html).toContain(`id="check-${c.type}"`);
    expect(html.match(/<svg /g)).toHaveLength(4);
    expect(html.match(/<h1>/g)).toHaveLength(1);
    expect(html).not.toMatch(/<script|<link |src="http|url\(http|@import/);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
  });

  it('keeps the summary to the cover and three actions', () => {
    const html = renderHtml(sampleReportDocument({ kind: 'summary' }));
    expect(html).toContain('What to fix first');
    expect(html.match(/<tr><td>\d<\/td>/g)).toHaveLength(3);
    expect(html).not.toContain('Checks</h2>');
    expect(html).not.toContain('<svg');
  });

  it('escapes every value from the document and survives the edges', () => {
    const html = renderHtml(edgeReportDocument());
    expect(html).not.toContain(HOSTILE);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;onload=&quot;x');
    expect(html).toContain('The record says &lt;script&gt;');
    expect(html).toContain('bücher-shop.example');
    expect(html).toContain('Nothing to fix');
  });

  it('passes axe (no serious or critical violation) and prints on A4, full and summary', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      for (const kind of ['full', 'summary'] as const) {
        await page.setContent(renderHtml(sampleReportDocument({ kind }), { appUrl: 'https://app.sendwell.test' }));
        const results = await new AxeBuilder({ page }).analyze();
        const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/${kind}-1280.png`, fullPage: true });
        await page.emulateMedia({ media: 'print' });
        const pdf = await page.pdf({ format: 'A4' });
        const printed = Number(/\/Type\s*\/Pages[\s\S]*?\/Count (\d+)/.exec(pdf.toString('latin1'))?.[1]);
        if (kind === 'summary') expect(printed).toBe(1);
        else expect(printed).toBeGreaterThanOrEqual(3);
        await page.emulateMedia({ media: 'screen' });
      }
    } finally {
      await context.close();
    }
  }, 60_000);
});
