import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReportRefusal } from '../refusal.js';
import { readTlsReport } from './read-tls-report.js';
import { cpuMsSince, seededBytes } from '@sendwell/testing/hostile';

const MAX_BYTES = 256 * 1024;
const BUDGET_MS = 200;
const example = readFileSync(new URL('../../../test/fixtures/tls-rpt/rfc8460-example.json', import.meta.url));
const contentType = fc.constantFrom('application/tlsrpt+json', 'application/tlsrpt+gzip', '', 'text/plain; charset=utf-8');

/** Noise of any length up to the cap: any bytes, or the grammar's own characters. */
const noise = seededBytes(MAX_BYTES, '{}[]",:0123456789.-eE \\truefalsn');

/** The RFC example with bytes overwritten, cut short or repeated: close enough to go deep. */
const mutated = fc
  .record({
    edits: fc.array(fc.record({ at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }), { maxLength: 20 }),
    cut: fc.option(fc.nat()),
    repeat: fc.integer({ min: 1, max: 200 }),
    gzip: fc.boolean(),
  })
  .map(({ edits, cut, repeat, gzip }) => {
    const bytes = Buffer.from(example);
    for (const { at, byte } of edits) bytes[at % bytes.length] = byte;
    const body = Buffer.concat(Array.from({ length: repeat }, () => (cut === null ? bytes : bytes.subarray(0, cut % bytes.length))));
    return gzip ? gzipSync(body) : body.subarray(0, MAX_BYTES);
  });

/** Valid JSON of any shape put where the report's fields go. */
const reshaped = fc.record({ at: fc.constantFrom('policies', 'date-range', 'report-id', 'organization-name'), value: fc.jsonValue({ maxDepth: 6 }) }).map(({ at, value }) => {
  const report = JSON.parse(example.toString()) as Record<string, unknown>;
  report[at] = value;
  return Buffer.from(JSON.stringify(report));
});

function readsOrRefuses(body: Uint8Array, type: string): void {
  const started = process.cpuUsage();
  try {
    readTlsReport(body, type);
  } catch (error) {
    if (!(error instanceof ReportRefusal)) throw error;
  }
  expect(cpuMsSince(started)).toBeLessThan(BUDGET_MS);
}

describe('readTlsReport on hostile input', () => {
  it('only ever refuses noise, within the time budget', () => {
    fc.assert(fc.property(noise, contentType, readsOrRefuses), { numRuns: 60 });
  });

  it('only ever refuses a mutated report, within the time budget', () => {
    fc.assert(fc.property(mutated, contentType, readsOrRefuses), { numRuns: 150 });
  });

  it('only ever refuses valid JSON of the wrong shape, within the time budget', () => {
    fc.assert(fc.property(reshaped, contentType, readsOrRefuses), { numRuns: 150 });
  });
});
