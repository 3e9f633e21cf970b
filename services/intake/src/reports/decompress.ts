import { gunzipSync } from 'node:zlib';
import { REPORT_LIMITS } from './limits.js';
import { refuse } from './refusal.js';

/** gzip (RFC 1952) begins 1f 8b. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * Refuses output over the decompressed cap, or over the ratio cap once past its floor: a bomb is
 * cut off when it crosses either, not after it has filled memory.
 */
export function checkExpansion(compressedBytes: number, decompressedBytes: number): void {
  if (decompressedBytes > REPORT_LIMITS.decompressedBytes) {
    refuse('DECOMPRESSED_TOO_LARGE', `The report decompresses to more than ${REPORT_LIMITS.decompressedBytes / 1024 / 1024} MB, more than any real report.`);
  }
  if (decompressedBytes > REPORT_LIMITS.ratioFloorBytes && decompressedBytes > compressedBytes * REPORT_LIMITS.compressionRatio) {
    refuse('COMPRESSION_RATIO', `The report expands more than ${REPORT_LIMITS.compressionRatio} times when decompressed, as compression bombs do; it was not read.`);
  }
}

/**
 * A gzip member, decompressed with zlib's own output cap (it stops inflating there), then the
 * ratio judged. Several concatenated members are read as one stream, as gunzip does.
 */
export function gunzipCapped(bytes: Uint8Array): Buffer {
  const limit = Math.min(REPORT_LIMITS.decompressedBytes, Math.max(REPORT_LIMITS.ratioFloorBytes, bytes.length * REPORT_LIMITS.compressionRatio));
  let out: Buffer;
  try {
    out = gunzipSync(bytes, { maxOutputLength: limit + 1 });
  } catch (error) {
    if (error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') checkExpansion(bytes.length, limit + 1);
    refuse('MALFORMED_CONTAINER', 'The gzip data is damaged or cut short.');
  }
  checkExpansion(bytes.length, out.length);
  return out;
}
