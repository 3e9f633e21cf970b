import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';

const require = createRequire(import.meta.url);

/**
 * WOFF 1.0 to the TrueType it wraps (W3C WOFF §4-5): the same tables, each inflated once here with
 * Node's zlib. Given the WOFF itself, fontkit would inflate the tables with its pure-JavaScript
 * inflater on every document, which measured 85 % of a report's rendering time.
 */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') throw new Error('not a WOFF 1.0 font');
  const numTables = woff.readUInt16BE(12);
  const tables = Array.from({ length: numTables }, (_, i) => {
    const at = 44 + i * 20;
    const offset = woff.readUInt32BE(at + 4);
    const compLength = woff.readUInt32BE(at + 8);
    const origLength = woff.readUInt32BE(at + 12);
    const raw = woff.subarray(offset, offset + compLength);
    return { tag: woff.subarray(at, at + 4), checksum: woff.readUInt32BE(at + 16), data: compLength < origLength ? inflateSync(raw) : raw };
  });
  const entrySelector = Math.floor(Math.log2(numTables));
  const searchRange = 2 ** entrySelector * 16;
  const header = Buffer.alloc(12 + numTables * 16);
  header.writeUInt32BE(woff.readUInt32BE(4), 0);
  header.writeUInt16BE(numTables, 4);
  header.writeUInt16BE(searchRange, 6);
  header.writeUInt16BE(entrySelector, 8);
  header.writeUInt16BE(numTables * 16 - searchRange, 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((t, i) => {
    const record = 12 + i * 16;
    t.tag.copy(header, record);
    header.writeUInt32BE(t.checksum, record + 4);
    header.writeUInt32BE(offset, record + 8);
    header.writeUInt32BE(t.data.length, record + 12);
    const padded = Buffer.alloc((t.data.length + 3) & ~3);
    t.data.copy(padded);
    parts.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(parts);
}

/**
 * Inter (SIL Open Font License) from @fontsource/inter, embedded and subset by pdfkit. The latin
 * files cover ASCII and Latin-1 (punycode domain names, our own texts); a character outside them is
 * left out of the PDF rather than failing it. Read and unwrapped once per process.
 */
let cache: { regular: Buffer; bold: Buffer } | null = null;

export function reportFonts(): { regular: Buffer; bold: Buffer } {
  cache ??= {
    regular: woffToSfnt(readFileSync(require.resolve('@fontsource/inter/files/inter-latin-400-normal.woff'))),
    bold: woffToSfnt(readFileSync(require.resolve('@fontsource/inter/files/inter-latin-700-normal.woff'))),
  };
  return cache;
}
