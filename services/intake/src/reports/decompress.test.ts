import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gunzipCapped, isGzip } from './decompress.js';
import { REPORT_LIMITS } from './limits.js';
import { cpuMsSince } from '@sendwell/testing/hostile';
import { refusal } from './refusal-testing.js';

describe('gunzipCapped', () => {
  it('reads a gzip member back', () => {
    const xml = Buffer.from('<feedback><report_metadata/></feedback>');
    const packed = gzipSync(xml);
    expect(isGzip(packed)).toBe(true);
    expect(isGzip(xml)).toBe(false);
    expect(gunzipCapped(packed).equals(xml)).toBe(true);
  });

  it('refuses a bomb by its ratio, having inflated no more than the cap', () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024)); // 64 MB of zeros in ~64 KB
    const started = process.cpuUsage();
    expect(refusal(() => gunzipCapped(bomb)).code).toBe('COMPRESSION_RATIO');
    expect(cpuMsSince(started)).toBeLessThan(2_000);
  });

  it('refuses damaged or cut-short data as malformed', () => {
    const packed = gzipSync(Buffer.from('<feedback/>'.repeat(100)));
    expect(refusal(() => gunzipCapped(packed.subarray(0, packed.length - 12))).code).toBe('MALFORMED_CONTAINER');
    expect(refusal(() => gunzipCapped(Buffer.from([0x1f, 0x8b, 1, 2, 3]))).code).toBe('MALFORMED_CONTAINER');
  });

  it('keeps small reports under the ratio floor whatever their ratio', () => {
    const zeros = Buffer.alloc(REPORT_LIMITS.ratioFloorBytes - 1);
    expect(gunzipCapped(gzipSync(zeros)).length).toBe(zeros.length);
  });
});
