import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReportRefusal } from '../refusal.js';
import { readFailureReport } from './read-failure-report.js';
import { cpuMsSince, seededBytes } from '@sendwell/testing/hostile';

const MAX_BYTES = 256 * 1024;
const BUDGET_MS = 200;
const fixtures = ['rfc6591-dkim-headers.eml', 'rfc5965-abuse.eml', 'dmarc-arf-rfc822.eml', 'opendmarc-plain-text.eml', 'plain-text-attached-headers.eml'].map((name) =>
  readFileSync(new URL(`../../../test/fixtures/failure/${name}`, import.meta.url)),
);

/** Noise of any length up to the cap: any bytes, or the grammar's own characters. */
const noise = seededBytes(MAX_BYTES, '\n\n\r: \t@"<>;=-multipart/report;boundary=Content-Type:message/feedback-reportSender Domain:');

/** A real report with bytes overwritten, cut short, or a slice of it repeated to the cap. */
const mutated = fc
  .record({
    source: fc.constantFrom(...fixtures),
    edits: fc.array(fc.record({ at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }), { maxLength: 20 }),
    slice: fc.tuple(fc.nat(), fc.nat()),
    repeat: fc.integer({ min: 1, max: MAX_BYTES }),
  })
  .map(({ source, edits, slice, repeat }) => {
    const bytes = Buffer.from(source);
    for (const { at, byte } of edits) bytes[at % bytes.length] = byte;
    const start = slice[0] % bytes.length;
    const piece = bytes.subarray(start, start + 1 + (slice[1] % (bytes.length - start)));
    const copies = Math.max(1, Math.min(Math.floor(MAX_BYTES / 2 / piece.length), repeat));
    return Buffer.concat([bytes, ...Array.from({ length: copies }, () => piece)]);
  });

/** Shapes aimed at the parser: endless boundaries, deep multiparts, one folded field, a sea of '@'. */
const pathological = fc.constantFrom(
  `Content-Type: multipart/report; boundary=b\n\n${'--b\nContent-Type: message/feedback-report\n\nFeedback-Type: auth-failure\n'.repeat(3_000)}`,
  `${'Content-Type: multipart/mixed; boundary=b\n\n--b\n'.repeat(5_000)}`,
  `Content-Type: message/feedback-report\n\nFeedback-Type: auth-failure\nAuthentication-Results: x${'\n x@'.repeat(60_000)}`,
  `Content-Type: text/plain\n\nSender Domain: a\nDMARC Results: ${'"@'.repeat(100_000)}\n${'From: '.repeat(20_000)}`,
  `Content-Type: text/plain; boundary=${'x'.repeat(200_000)}\n\n`,
  `Content-Transfer-Encoding: quoted-printable\n\n${'=\n='.repeat(80_000)}`,
);

function readsOrRefuses(message: Uint8Array): void {
  const started = process.cpuUsage();
  try {
    readFailureReport(message);
  } catch (error) {
    if (!(error instanceof ReportRefusal)) throw error;
  }
  expect(cpuMsSince(started)).toBeLessThan(BUDGET_MS);
}

describe('readFailureReport on hostile input', () => {
  it('only ever refuses noise, within the time budget', () => {
    fc.assert(fc.property(noise, readsOrRefuses), { numRuns: 60 });
  });

  it('only ever reads or refuses a mutated report, within the time budget', () => {
    fc.assert(fc.property(mutated, readsOrRefuses), { numRuns: 150 });
  });

  it('stays within the time budget on shapes aimed at the parser', () => {
    fc.assert(fc.property(pathological.map((text) => Buffer.from(text)), readsOrRefuses), { numRuns: 12 });
  });
});
