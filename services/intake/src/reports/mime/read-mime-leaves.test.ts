import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { REPORT_LIMITS } from '../limits.js';
import { ReportRefusal } from '../refusal.js';
import { parseStructuredValue } from './header-params.js';
import { readEntityHeaders, readMimeLeaves } from './read-mime-leaves.js';
import { decodeQuotedPrintable } from './transfer-encoding.js';
import { cpuMsSince } from '@sendwell/testing/hostile';
import { refusal } from '../refusal-testing.js';

const crlf = (...lines: string[]): Buffer => Buffer.from(lines.join('\r\n'), 'latin1');

describe('readMimeLeaves', () => {
  it('round-trips a binary base64 attachment byte for byte, whatever its line breaks and padding', () => {
    const binary = Buffer.concat([gzipSync(Buffer.from('<feedback/>')), randomBytes(1000), Buffer.from([0, 0x0d, 0x0a, 0xff])]);
    for (const [lineLength, eol, padding] of [
      [76, '\r\n', true],
      [13, '\n', false],
    ] as const) {
      let base64 = binary.toString('base64');
      if (!padding) base64 = base64.replaceAll('=', '');
      const body = base64.match(new RegExp(`.{1,${lineLength}}`, 'g'))!.join(eol);
      const message = Buffer.from(
        ['Content-Type: multipart/mixed; boundary="b"', '', '--b', 'Content-Type: text/plain', '', 'hello', '--b', 'Content-Type: application/gzip; name="r.xml.gz"', 'Content-Transfer-Encoding: base64', '', body, '--b--', ''].join(eol),
      );
      const leaves = readMimeLeaves(message);
      expect(leaves.map((leaf) => [leaf.type, leaf.name])).toEqual([
        ['text/plain', null],
        ['application/gzip', 'r.xml.gz'],
      ]);
      expect(leaves[0]!.body.toString()).toBe('hello');
      expect(leaves[1]!.body.equals(binary)).toBe(true);
    }
  });

  it('keeps 8bit and binary bodies as they are, bytes outside UTF-8 included', () => {
    const bytes = Buffer.from([0x1f, 0x8b, 0x80, 0xfe, 0x0a, 0x00]);
    const message = Buffer.concat([crlf('Content-Type: application/octet-stream', 'Content-Transfer-Encoding: binary', '', ''), bytes]);
    expect(readMimeLeaves(message)[0]!.body.equals(bytes)).toBe(true);
  });

  it('decodes quoted-printable: =XX bytes, soft line breaks (with trailing blanks), a stray = kept', () => {
    const message = crlf('Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: Quoted-Printable', '', 'Caf=C3=A9 au l=  ', 'ait =3D 1 = 2=', '');
    expect(readMimeLeaves(message)[0]!.body.toString('utf8')).toBe('Café au lait = 1 = 2');
    expect(decodeQuotedPrintable(Buffer.from('a=\nb=0d=0A=zz')).toString('latin1')).toBe('ab\r\n=zz');
  });

  it('walks nested multiparts depth first, and stops following them past the nesting cap', () => {
    const message = crlf(
      'Content-Type: multipart/mixed; boundary=outer',
      '',
      'preamble, ignored',
      '--outer',
      'Content-Type: multipart/alternative; boundary="inner"',
      '',
      '--inner',
      'Content-Type: text/plain',
      '',
      'plain',
      '--inner',
      'Content-Type: text/html',
      '',
      '<p>html</p>',
      '--inner--',
      '--outer  ',
      'Content-Type: text/xml; name=r.xml',
      '',
      '<feedback/>',
      '--outer--',
      'epilogue, ignored',
    );
    expect(readMimeLeaves(message).map((leaf) => [leaf.type, leaf.body.toString()])).toEqual([
      ['text/plain', 'plain'],
      ['text/html', '<p>html</p>'],
      ['text/xml', '<feedback/>'],
    ]);
    expect(readMimeLeaves(message, { ...REPORT_LIMITS, nestingDepth: 1 }).map((leaf) => leaf.type)).toEqual(['text/xml']);
  });

  it('returns a message/rfc822 part as a leaf whose bytes are the embedded message', () => {
    const inner = crlf('From: sender@example.com', 'Message-ID: <m1@example.com>', 'Content-Type: multipart/mixed; boundary=x', '', '--x', '', 'body', '--x--');
    const message = Buffer.concat([crlf('Content-Type: multipart/report; boundary=r', '', '--r', 'Content-Type: message/rfc822', '', ''), inner, crlf('', '--r--', '')]);
    const [leaf] = readMimeLeaves(message);
    expect(leaf?.type).toBe('message/rfc822');
    expect(leaf?.body.equals(inner)).toBe(true);
    expect(readEntityHeaders(leaf!.body).headers.map((field) => field.name)).toEqual(['from', 'message-id', 'content-type']);
  });

  it('unfolds folded header fields, LF or CRLF, and reads a message without an empty line as all headers', () => {
    const message = Buffer.from('Content-Type: application/zip;\r\n\tname="report\r\n .zip";\r\n boundary=unused\r\nX-Other: a\r\n\r\nPK');
    const [leaf] = readMimeLeaves(message);
    expect(leaf?.type).toBe('application/zip');
    expect(leaf?.name).toBe('report .zip');
    expect(leaf?.headers).toContainEqual({ name: 'x-other', value: 'a' });
    expect(readEntityHeaders(Buffer.from('From: a@example.com\nTo: b@example.com')).headers).toHaveLength(2);
  });

  it('takes the Content-Disposition filename over the Content-Type name, and joins RFC 2231 continuations', () => {
    const message = crlf(
      'Content-Type: application/gzip; name="fallback.gz"',
      "Content-Disposition: attachment; filename*0*=utf-8''r%C3%A9; filename*1=port.xml.gz; filename=\"plain.gz\"",
      '',
      '',
    );
    expect(readMimeLeaves(message)[0]?.name).toBe('réport.xml.gz');
    expect(readMimeLeaves(crlf('Content-Type: application/zip; name="a;b.zip"', '', ''))[0]?.name).toBe('a;b.zip');
    expect(parseStructuredValue('Attachment; filename="a\\"b.xml"; size=10')).toEqual({ value: 'attachment', params: new Map([['filename', 'a"b.xml'], ['size', '10']]) });
  });

  it('refuses more header lines or parts than the caps, with a clear message', () => {
    const headers = refusal(() => readMimeLeaves(Buffer.from('X: a\r\n'.repeat(REPORT_LIMITS.mimeHeaderLines + 1))));
    expect(headers.code).toBe('MALFORMED_CONTAINER');
    expect(headers.message).toBe('The email message has more than 1000 header lines in one part, far more than any real message.');
    const parts = refusal(() => readMimeLeaves(Buffer.from(`Content-Type: multipart/mixed; boundary=b\n\n${'--b\n\nx\n'.repeat(REPORT_LIMITS.mimeParts)}--b--\n`)));
    expect(parts.code).toBe('MALFORMED_CONTAINER');
    expect(parts.message).toBe('The email message has more than 100 MIME parts, far more than any real report.');
    expect(readMimeLeaves(Buffer.from(`Content-Type: multipart/mixed; boundary=b\n\n${'--b\n\nx\n'.repeat(REPORT_LIMITS.mimeParts - 1)}--b--\n`))).toHaveLength(99);
  });

  it('stays linear on 256 KB shaped against it', () => {
    const size = 256 * 1024;
    for (const unit of ['X: a\n\n', 'X: a\r\n\r\n', '\n', '--b\n', 'a\n b\n', '=\n', '=3D']) {
      const body = unit.repeat(size / unit.length);
      for (const message of [body, `Content-Type: multipart/mixed; boundary=b\nContent-Transfer-Encoding: quoted-printable\n\n${body}`, `X: a\n${' folded\n'.repeat(size / 8)}\n`]) {
        const started = process.cpuUsage();
        try {
          readMimeLeaves(Buffer.from(message));
        } catch (error) {
          if (!(error instanceof ReportRefusal)) throw error;
        }
        expect(cpuMsSince(started)).toBeLessThan(200);
      }
    }
  });
});
