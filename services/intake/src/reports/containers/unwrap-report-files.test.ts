import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { REPORT_LIMITS } from '../limits.js';
import { ReportRefusal } from '../refusal.js';
import { unwrapReportFiles } from './unwrap-report-files.js';
import { cpuMsSince } from '@sendwell/testing/hostile';
import { refusal } from '../refusal-testing.js';

const XML = Buffer.from('<?xml version="1.0"?>\n<feedback><report_metadata/></feedback>\n');

/** A message with one attachment, base64 at `lineLength` characters a line, CRLF or LF. */
function message(part: { type: string; name?: string; bytes: Uint8Array; lineLength?: number; eol?: string; padding?: boolean }): Buffer {
  const eol = part.eol ?? '\r\n';
  let base64 = Buffer.from(part.bytes).toString('base64');
  if (part.padding === false) base64 = base64.replaceAll('=', ''); // padding only ever ends base64
  const lines = base64.match(new RegExp(`.{1,${part.lineLength ?? 76}}`, 'g')) ?? [];
  const name = part.name ? `; name="${part.name}"` : '';
  const disposition = part.name ? `Content-Disposition: attachment; filename="${part.name}"${eol}` : '';
  return Buffer.from(
    [
      'From: noreply-dmarc-support@google.com',
      'To: rua+abc@reports.sendwell.example',
      'Subject: Report domain: example.com',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'This is an aggregate report from google.com.',
      '--b1',
      `Content-Type: ${part.type}${name}`,
      'Content-Transfer-Encoding: base64',
      disposition.trimEnd(),
      ...(disposition ? [''] : []),
      ...lines,
      '--b1--',
      '',
    ]
      .filter((line, index, all) => !(line === '' && all[index - 1] === '' && index > 6))
      .join(eol),
  );
}

let boundaries = 0;

function forwarded(inner: Buffer): Buffer {
  const boundary = `fw${(boundaries += 1)}`;
  return Buffer.from(
    `From: admin@example.com\r\nSubject: Fwd: Report\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="${boundary}"\r\n\r\n--${boundary}\r\nContent-Type: text/plain\r\n\r\nsee below\r\n--${boundary}\r\nContent-Type: message/rfc822\r\n\r\n${inner.toString('latin1')}\r\n--${boundary}--\r\n`,
    'latin1',
  );
}

/** Sets the uncompressed size every central directory entry declares (APPNOTE 4.3.12, offset 24). */
function declareSize(zip: Uint8Array, size: number): Buffer {
  const patched = Buffer.from(zip);
  for (let at = patched.indexOf('PK\x01\x02', 0, 'latin1'); at !== -1; at = patched.indexOf('PK\x01\x02', at + 4, 'latin1')) patched.writeUInt32LE(size, at + 24);
  return patched;
}

describe('unwrapReportFiles: the containers receivers send', () => {
  it('takes raw XML as it is', () => {
    expect(unwrapReportFiles(XML)).toEqual([{ name: null, bytes: XML }]);
  });

  it('gunzips a .xml.gz', () => {
    expect(unwrapReportFiles(gzipSync(XML))).toEqual([{ name: null, bytes: XML }]);
  });

  it('unzips a .zip, deflated or stored, skipping what is not a report', () => {
    const zip = zipSync({ 'google.com!example.com!1704067200!1704153599.xml': XML, 'README.txt': Buffer.from('hello'), 'dir/': new Uint8Array(0) });
    expect(unwrapReportFiles(zip)).toEqual([{ name: 'google.com!example.com!1704067200!1704153599.xml', bytes: XML }]);
    const stored = zipSync({ 'r.xml': [XML, { level: 0 }] });
    expect(unwrapReportFiles(stored)).toEqual([{ name: 'r.xml', bytes: XML }]);
  });

  it.each([
    ['application/gzip', 'r.xml.gz', gzipSync(XML)],
    ['application/x-gzip', 'r.xml.gz', gzipSync(XML)],
    ['application/zip', 'r.zip', zipSync({ 'r.xml': XML })],
    ['application/x-zip-compressed', 'r.zip', zipSync({ 'r.xml': XML })],
    ['text/xml', 'r.xml', XML],
    ['application/xml', undefined, XML],
    ['application/octet-stream', 'r.xml.gz', gzipSync(XML)],
    ['application/octet-stream', 'r.zip', zipSync({ 'r.xml': XML })],
    ['text/plain', 'wrongly-labelled.bin', gzipSync(XML)],
    ['application/pdf', undefined, zipSync({ 'r.xml': XML })],
  ])('finds a %s attachment named %s', (type, name, bytes) => {
    const files = unwrapReportFiles(message({ type, name, bytes }), 'message/rfc822');
    expect(files.map((file) => file.bytes)).toEqual([XML]);
  });

  it('decodes base64 with odd line breaks and missing padding', () => {
    const odd = message({ type: 'application/gzip', name: 'r.xml.gz', bytes: gzipSync(XML), lineLength: 13, eol: '\n', padding: false });
    expect((unwrapReportFiles(odd)).map((file) => file.bytes)).toEqual([XML]);
  });

  it('opens a forwarded message with the report inside', () => {
    const inner = message({ type: 'application/zip', name: 'r.zip', bytes: zipSync({ 'r.xml': XML }) });
    expect(unwrapReportFiles(forwarded(inner))).toEqual([{ name: 'r.xml', bytes: XML }]);
  });

  it('refuses containers nested deeper than the cap', () => {
    let nested = message({ type: 'application/gzip', name: 'r.xml.gz', bytes: gzipSync(XML) });
    for (let level = 0; level < REPORT_LIMITS.nestingDepth; level += 1) nested = forwarded(nested);
    const refused = refusal(() => unwrapReportFiles(nested));
    expect(refused.code).toBe('MALFORMED_CONTAINER');
    expect(refused.message).toMatch(/more than 3 levels deep/);
  });

  it('refuses with NO_REPORT_FOUND when nothing is there', () => {
    const noAttachment = Buffer.from('From: a@example.com\r\nSubject: hi\r\n\r\njust text\r\n');
    for (const input of [noAttachment, Buffer.from('%PDF-1.4'), Buffer.alloc(0), message({ type: 'image/png', name: 'logo.png', bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47]) })]) {
      expect((refusal(() => unwrapReportFiles(input))).code).toBe('NO_REPORT_FOUND');
    }
    expect((refusal(() => unwrapReportFiles(XML, 'text/html'))).code).toBe('NO_REPORT_FOUND');
  });

  it('refuses input over the cap before parsing it', () => {
    const refused = refusal(() => unwrapReportFiles(XML, undefined, { ...REPORT_LIMITS, inputBytes: XML.length - 1 }));
    expect(refused.code).toBe('TOO_LARGE');
  });
});

describe('unwrapReportFiles: bombs and broken archives', () => {
  it('refuses a gzip bomb quickly', () => {
    const bomb = gzipSync(Buffer.alloc(32 * 1024 * 1024));
    const started = process.cpuUsage();
    expect((refusal(() => unwrapReportFiles(bomb))).code).toBe('COMPRESSION_RATIO');
    expect(cpuMsSince(started)).toBeLessThan(2_000);
  });

  it('refuses a zip bomb that declares a small size, counting what it really inflates', () => {
    const bomb = declareSize(zipSync({ 'r.xml': Buffer.alloc(32 * 1024 * 1024) }), 100);
    const started = process.cpuUsage();
    expect((refusal(() => unwrapReportFiles(bomb))).code).toBe('COMPRESSION_RATIO');
    expect(cpuMsSince(started)).toBeLessThan(2_000);
  });

  it('refuses a zip that declares a huge size without inflating it', () => {
    const huge = declareSize(zipSync({ 'r.xml': XML }), 0xfffffff0);
    expect((refusal(() => unwrapReportFiles(huge))).code).toBe('DECOMPRESSED_TOO_LARGE');
  });

  it('refuses more zip entries than the cap', () => {
    const files = Object.fromEntries(Array.from({ length: REPORT_LIMITS.zipEntries + 1 }, (_, index) => [`r${index}.xml`, XML]));
    const refused = refusal(() => unwrapReportFiles(zipSync(files)));
    expect(refused.code).toBe('MALFORMED_CONTAINER');
    expect(refused.message).toMatch(/more than 8 files/);
  });

  it('refuses damaged gzip and zip data as malformed', () => {
    const zip = zipSync({ 'r.xml': Buffer.from(XML.toString().repeat(50)) });
    const corrupt = Buffer.from(zip);
    corrupt.fill(0xff, 40, 60); // inside the deflate stream
    for (const broken of [gzipSync(XML).subarray(0, 20), zip.subarray(0, zip.length - 30), corrupt, Buffer.from('PK\x03\x04garbage')]) {
      expect((refusal(() => unwrapReportFiles(broken))).code).toBe('MALFORMED_CONTAINER');
    }
  });
});

describe('unwrapReportFiles on hostile input', () => {
  const size = 256 * 1024;

  /** Never anything but a ReportRefusal, within 200 ms. */
  function readsOrRefuses(input: Uint8Array): void {
    const started = process.cpuUsage();
    try {
      unwrapReportFiles(input);
    } catch (error) {
      if (!(error instanceof ReportRefusal)) throw error;
    }
    expect(cpuMsSince(started)).toBeLessThan(200);
  }

  it('reads 256 KB of `X: a` lines and blank lines within the budget (mailparser took ~350 ms)', () => {
    const lines = fc.array(fc.constantFrom('X: a', '', ' folded', '--b', 'Content-Type: multipart/mixed; boundary=b'), { minLength: 1, maxLength: 64 });
    const eol = fc.constantFrom('\n', '\r\n');
    fc.assert(
      fc.property(lines, eol, (pattern, lineEnd) => {
        const unit = pattern.join(lineEnd) + lineEnd;
        readsOrRefuses(Buffer.from(`X: a${lineEnd}${lineEnd}${unit.repeat(Math.ceil(size / unit.length))}`.slice(0, size)));
        readsOrRefuses(Buffer.from(unit.repeat(Math.ceil(size / unit.length)).slice(0, size)));
      }),
      { numRuns: 40 },
    );
    for (const unit of ['X: a\n\n', 'X: a\r\n\r\n', 'X: a\n']) readsOrRefuses(Buffer.from(unit.repeat(size / unit.length)));
  });

  it('refuses more header lines than the cap as a malformed container', () => {
    const refused = refusal(() => unwrapReportFiles(Buffer.from('X: a\r\n'.repeat(REPORT_LIMITS.mimeHeaderLines + 1))));
    expect(refused.code).toBe('MALFORMED_CONTAINER');
    expect(refused.message).toMatch(/more than 1000 header lines/);
  });
});
