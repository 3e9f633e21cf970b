import { afterAll, describe, expect, it } from 'vitest';
import type { ReportDocument } from '@sendwell/contracts';
import { sampleReportDocument } from '../sample-document.js';
import { PdfRenderPool } from './pdf-pool.js';

const pool = new PdfRenderPool(2);
afterAll(() => pool.close());

describe('PdfRenderPool', () => {
  it('renders on its threads, several at once, each its own document', async () => {
    const pdfs = await Promise.all(Array.from({ length: 5 }, (_, i) => pool.render(sampleReportDocument({ domainName: `d${i}.example` }))));
    for (const [i, pdf] of pdfs.entries()) {
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdf.toString('latin1')).toContain(`Sendwell report for d${i}.example`);
    }
  }, 30_000);

  it('fails the document a thread cannot render, and keeps serving the next', async () => {
    await expect(pool.render({ kind: 'full' } as unknown as ReportDocument)).rejects.toThrow();
    expect((await pool.render(sampleReportDocument({ kind: 'summary' }))).length).toBeGreaterThan(1_000);
  }, 30_000);

  it('refuses work once closed', async () => {
    const closed = new PdfRenderPool(1);
    await closed.close();
    await expect(closed.render(sampleReportDocument())).rejects.toThrow('closed');
  });
});
