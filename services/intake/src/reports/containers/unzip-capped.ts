import { Inflate } from 'fflate';
import { checkExpansion } from '../decompress.js';
import { REPORT_LIMITS, type ReportLimits } from '../limits.js';
import { ReportRefusal, refuse } from '../refusal.js';

/**
 * The files of a zip archive, read from its central directory (PKWARE APPNOTE 4.3.12) and inflated
 * with every output byte counted. Declared sizes are never trusted to size a buffer: a declared size
 * over the caps is refused before inflating, and a declared-small entry that inflates huge is cut
 * off when the running total crosses the caps (checkExpansion), a chunk at a time.
 */
export interface ZipFile {
  name: string;
  bytes: Buffer;
}

const END_RECORD = 0x06054b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
/** Compressed bytes fed to the inflater per step: deflate expands at most ~1032:1, so one step yields at most ~4 MB. */
const INFLATE_STEP = 4 * 1024;

function u16(bytes: Uint8Array, at: number): number {
  return (bytes[at] as number) | ((bytes[at + 1] as number) << 8);
}

function u32(bytes: Uint8Array, at: number): number {
  return (u16(bytes, at) + u16(bytes, at + 2) * 0x10000) >>> 0;
}

function damaged(why: string): never {
  refuse('MALFORMED_CONTAINER', `The zip file is damaged or not a zip file (${why}).`);
}

/** The end of central directory record sits in the last 22 + 65,535 (comment) bytes (APPNOTE 4.3.16). */
function findEndRecord(zip: Uint8Array): number {
  const earliest = Math.max(0, zip.length - 22 - 0xffff);
  for (let at = zip.length - 22; at >= earliest; at -= 1) {
    if (u32(zip, at) === END_RECORD) return at;
  }
  return damaged('no end of central directory');
}

interface Entry {
  name: string;
  method: number;
  encrypted: boolean;
  compressedSize: number;
  declaredSize: number;
  localOffset: number;
}

function readCentralDirectory(zip: Uint8Array, limits: ReportLimits): Entry[] {
  const end = findEndRecord(zip);
  const declaredCount = u16(zip, end + 10);
  const directoryOffset = u32(zip, end + 16);
  if (declaredCount === 0xffff || directoryOffset === 0xffffffff) damaged('zip64 archives are not accepted for reports');
  if (declaredCount > limits.zipEntries) tooManyEntries(limits);
  const entries: Entry[] = [];
  let at = directoryOffset;
  // Walk the headers themselves rather than trust the count: it is counted again as we go.
  while (at + 46 <= end && u32(zip, at) === CENTRAL_HEADER) {
    if (entries.length === limits.zipEntries) tooManyEntries(limits);
    const nameLength = u16(zip, at + 28);
    const skip = 46 + nameLength + u16(zip, at + 30) + u16(zip, at + 32);
    if (at + skip > end) damaged('a central directory entry runs past its end');
    entries.push({
      name: Buffer.from(zip.subarray(at + 46, at + 46 + nameLength)).toString('utf8'),
      method: u16(zip, at + 10),
      encrypted: (u16(zip, at + 8) & 1) === 1,
      compressedSize: u32(zip, at + 20),
      declaredSize: u32(zip, at + 24),
      localOffset: u32(zip, at + 42),
    });
    at += skip;
  }
  return entries;
}

function tooManyEntries(limits: ReportLimits): never {
  refuse('MALFORMED_CONTAINER', `The zip holds more than ${limits.zipEntries} files; a report zip holds one report.`);
}

function entryData(zip: Uint8Array, entry: Entry): Uint8Array {
  const at = entry.localOffset;
  if (at + 30 > zip.length || u32(zip, at) !== LOCAL_HEADER) damaged(`no local header for ${entry.name}`);
  const start = at + 30 + u16(zip, at + 26) + u16(zip, at + 28);
  if (start + entry.compressedSize > zip.length) damaged(`${entry.name} is cut short`);
  return zip.subarray(start, start + entry.compressedSize);
}

/** Inflates raw deflate (RFC 1951) in steps, counting output against the archive's running total. */
function inflateCounted(data: Uint8Array, archiveBytes: number, producedBefore: number): Buffer {
  const chunks: Uint8Array[] = [];
  let produced = producedBefore;
  let ended = false;
  const inflater = new Inflate((chunk, final) => {
    produced += chunk.length;
    checkExpansion(archiveBytes, produced);
    chunks.push(chunk);
    ended ||= final;
  });
  try {
    for (let at = 0; at < data.length; at += INFLATE_STEP) {
      inflater.push(data.subarray(at, at + INFLATE_STEP), at + INFLATE_STEP >= data.length);
    }
    if (data.length === 0) inflater.push(new Uint8Array(0), true);
  } catch (error) {
    if (error instanceof ReportRefusal) throw error;
    damaged('its compressed data is corrupt');
  }
  if (!ended) damaged('its compressed data is cut short');
  return Buffer.concat(chunks);
}

export function unzipCapped(zip: Uint8Array, limits: ReportLimits = REPORT_LIMITS): ZipFile[] {
  const files: ZipFile[] = [];
  let produced = 0;
  for (const entry of readCentralDirectory(zip, limits)) {
    if (entry.name.endsWith('/')) continue; // a directory
    if (entry.encrypted) damaged(`${entry.name} is encrypted`);
    // A declared size is a claim, not a measure: refused when it alone breaks the caps, never used to allocate.
    checkExpansion(zip.length, produced + entry.declaredSize);
    const data = entryData(zip, entry);
    let bytes: Buffer;
    if (entry.method === STORED) bytes = Buffer.from(data);
    else if (entry.method === DEFLATED) bytes = inflateCounted(data, zip.length, produced);
    else damaged(`${entry.name} uses compression method ${entry.method}, not deflate`);
    produced += bytes.length;
    files.push({ name: entry.name, bytes });
  }
  return files;
}
