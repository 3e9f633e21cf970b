import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REPORT_LIMITS } from '../limits.js';
import { parseAggregateReport } from './parse-aggregate-report.js';
import type { AggregateReport } from './types.js';
import { refusal } from '../refusal-testing.js';

function fixture(name: string): Buffer {
  return readFileSync(new URL(`../../../test/fixtures/aggregate/${name}`, import.meta.url));
}

const seconds = (unix: number): Date => new Date(unix * 1000);

describe('parseAggregateReport: the three formats', () => {
  it('reads an RFC 7489 report in full', () => {
    const expected: AggregateReport = {
      format: 'rfc7489',
      reporter: { orgName: 'google.com', email: 'noreply-dmarc-support@google.com', extraContact: 'https://support.google.com/a/answer/2466580' },
      reportId: '5717107811868587391',
      period: { begin: seconds(1704067200), end: seconds(1704153599) },
      policy: { domain: 'example.com', adkim: 'r', aspf: 's', p: 'quarantine', sp: 'none', np: null, pct: 50, fo: '1', testing: null, discoveryMethod: null },
      records: [
        {
          sourceIp: '192.0.2.10',
          count: 12,
          disposition: 'none',
          dkim: 'pass',
          spf: 'pass',
          reasons: [],
          headerFrom: 'example.com',
          envelopeFrom: 'example.com',
          envelopeTo: 'example.net',
          dkimResults: [{ domain: 'example.com', selector: 's2024', result: 'pass' }],
          spfResults: [{ domain: 'example.com', scope: 'mfrom', result: 'pass' }],
        },
        {
          sourceIp: '2001:db8::25',
          count: 3,
          disposition: 'quarantine',
          dkim: 'fail',
          spf: 'fail',
          reasons: [
            { type: 'forwarded', comment: 'arrived through a list' },
            { type: 'sampled_out', comment: null },
          ],
          headerFrom: 'example.com',
          envelopeFrom: null,
          envelopeTo: null,
          dkimResults: [
            { domain: 'lists.example.org', selector: 'k1', result: 'fail' },
            { domain: 'example.com', selector: 's2024', result: 'permerror' },
          ],
          spfResults: [{ domain: 'lists.example.org', scope: 'helo', result: 'softfail' }],
        },
      ],
      errors: ['DNS timeout looking up _dmarc.mail.example.com'],
    };
    expect(parseAggregateReport(fixture('rfc7489.xml'))).toEqual(expected);
  });

  it('reads the pre-RFC draft format: no version, upper case, no selector, a root dot, unknown elements', () => {
    const expected: AggregateReport = {
      format: 'draft',
      reporter: { orgName: 'AOL', email: 'postmaster@aol.com', extraContact: null },
      reportId: 'example.com_1504828800',
      period: { begin: seconds(1504742400), end: seconds(1504828800) },
      policy: { domain: 'example.com', adkim: 'r', aspf: 'r', p: 'reject', sp: 'reject', np: null, pct: 100, fo: null, testing: null, discoveryMethod: null },
      records: [
        {
          sourceIp: '198.51.100.7',
          count: 1,
          disposition: 'none',
          dkim: 'pass',
          spf: 'fail',
          reasons: [],
          headerFrom: 'example.com',
          envelopeFrom: null,
          envelopeTo: null,
          dkimResults: [{ domain: 'example.com', selector: null, result: 'pass' }],
          spfResults: [{ domain: 'bounce.example.com', scope: null, result: 'neutral' }],
        },
      ],
      errors: [],
    };
    expect(parseAggregateReport(fixture('draft.xml'))).toEqual(expected);
  });

  it('reads DMARCbis: np, testing, discovery method, no pct, extensions ignored', () => {
    const expected: AggregateReport = {
      format: 'dmarcbis',
      reporter: { orgName: 'Receiver Example', email: 'dmarc-reports@receiver.example', extraContact: null },
      reportId: 'bis-2025-06-01-0001',
      period: { begin: seconds(1748736000), end: seconds(1748822399) },
      policy: { domain: 'example.com', adkim: 's', aspf: 'r', p: 'reject', sp: 'quarantine', np: 'reject', pct: null, fo: 'd:s', testing: false, discoveryMethod: 'treewalk' },
      records: [
        {
          sourceIp: '203.0.113.5',
          count: 40,
          disposition: 'reject',
          dkim: 'fail',
          spf: 'fail',
          reasons: [{ type: 'local_policy', comment: null }],
          headerFrom: 'news.example.com',
          envelopeFrom: 'news.example.com',
          envelopeTo: null,
          dkimResults: [{ domain: 'news.example.com', selector: 'mail', result: 'fail' }],
          spfResults: [{ domain: 'news.example.com', scope: null, result: 'fail' }],
        },
      ],
      errors: [],
    };
    expect(parseAggregateReport(fixture('dmarcbis.xml'))).toEqual(expected);
  });

  it('reads a namespace prefix on every element, and a UTF-8 byte order mark', () => {
    const prefixed = fixture('dmarcbis.xml')
      .toString('utf8')
      .replace('<feedback xmlns=', '<d:feedback xmlns:d=')
      .replaceAll('</feedback>', '</d:feedback>');
    const report = parseAggregateReport(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(prefixed)]));
    expect(report.format).toBe('dmarcbis');
    expect(report.records).toHaveLength(1);
  });
});

describe('parseAggregateReport: character encodings', () => {
  /** A report whose reporter and contact are not ASCII, as bytes in `encoding` under a declaration naming `declared`. */
  const encoded = (encoding: 'latin1' | 'utf8' | 'utf16le', declared: string | null): Buffer => {
    const declaration = declared === null ? '<?xml version="1.0"?>' : `<?xml version="1.0" encoding="${declared}"?>`;
    const xml = minimal({ metadata: '<report_metadata><org_name>Société Générale</org_name><email>dmarc@société.example</email><report_id>1</report_id><date_range><begin>0</begin><end>86400</end></date_range></report_metadata>' });
    return Buffer.from(`${declaration}\n${xml}`, encoding);
  };

  it('reads the encoding the XML declaration names: ISO-8859-1 and windows-1252 reporters keep their accents', () => {
    for (const declared of ['ISO-8859-1', 'windows-1252', 'latin1']) {
      expect(parseAggregateReport(encoded('latin1', declared)).reporter).toMatchObject({ orgName: 'Société Générale', email: 'dmarc@société.example' });
    }
    expect(parseAggregateReport(encoded('utf8', 'UTF-8')).reporter.orgName).toBe('Société Générale');
    expect(parseAggregateReport(encoded('utf8', null)).reporter.orgName).toBe('Société Générale');
    const bom = Buffer.concat([Buffer.from([0xff, 0xfe]), encoded('utf16le', 'UTF-16')]);
    expect(parseAggregateReport(bom).reporter.orgName).toBe('Société Générale');
  });

  it('reads UTF-8 when the declaration names what cannot be so or is unknown, and never lets a label run a decoder it should not', () => {
    // UTF-16 named over ASCII-compatible bytes (no byte order mark), an unknown label, the WHATWG
    // "replacement" family (which would turn every byte into U+FFFD) and a UTF-8 byte order mark over a
    // latin1 declaration (the mark wins).
    for (const declared of ['UTF-16', 'x-no-such-charset', 'ISO-2022-KR']) expect(parseAggregateReport(encoded('utf8', declared)).reporter.orgName).toBe('Société Générale');
    const marked = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), encoded('utf8', 'ISO-8859-1')]);
    expect(parseAggregateReport(marked).reporter.orgName).toBe('Société Générale');
  });

  it('looks for the declaration in the first bytes only', () => {
    // Padded past the prefix the pattern reads: not seen, so UTF-8 (the accents become replacements).
    const padded = Buffer.concat([Buffer.from(`<?xml version="1.0"${' '.repeat(300)} encoding="ISO-8859-1"?>\n`), encoded('latin1', null).subarray(22)]);
    expect(parseAggregateReport(padded).reporter.orgName).toBe('Soci\uFFFDt\uFFFD G\uFFFDn\uFFFDrale');
    // A declaration that never closes, repeated at length: refused as the malformed XML it is.
    expect(refusal(() => parseAggregateReport(Buffer.from(`<?xml ${'encoding= '.repeat(50_000)}`))).code).toBe('MALFORMED_XML');
  });
});

const minimal = (inner: { metadata?: string; policy?: string; records?: string; root?: string } = {}): string =>
  `<${inner.root ?? 'feedback'}>${inner.metadata ?? '<report_metadata><org_name>r</org_name><report_id>1</report_id><date_range><begin>0</begin><end>86400</end></date_range></report_metadata>'}${inner.policy ?? '<policy_published><domain>example.com</domain></policy_published>'}${inner.records ?? ''}</${inner.root ?? 'feedback'}>`;
const record = (row: string): string => `<record><row>${row}</row></record>`;

describe('parseAggregateReport: refusals', () => {
  it.each([
    ['no policy domain', minimal({ policy: '<policy_published><p>none</p></policy_published>' }), /<policy_published> has no <domain>/],
    ['no policy at all', minimal({ policy: '' }), /no <policy_published>/],
    ['no report id', minimal({ metadata: '<report_metadata><date_range><begin>0</begin><end>1</end></date_range></report_metadata>' }), /no <report_id>/],
    ['no date range', minimal({ metadata: '<report_metadata><report_id>1</report_id></report_metadata>' }), /no <date_range>/],
    ['a date that is no number', minimal({ metadata: '<report_metadata><report_id>1</report_id><date_range><begin>yesterday</begin><end>1</end></date_range></report_metadata>' }), /<begin> is "yesterday"/],
    ['a negative count', minimal({ records: record('<source_ip>192.0.2.1</source_ip><count>-1</count>') }), /record 1: <count> "-1"/],
    ['a fractional count', minimal({ records: record('<source_ip>192.0.2.1</source_ip><count>1.5</count>') }), /<count> "1.5"/],
    ['a missing count', minimal({ records: record('<source_ip>192.0.2.1</source_ip>') }), /<count> is missing/],
    ['a source that is no IP', minimal({ records: record('<source_ip>mail.example.com</source_ip><count>1</count>') }), /<source_ip> "mail.example.com" is not an IP address/],
    ['another root', minimal({ root: 'html' }), /root element is <html>/],
  ])('%s is not an aggregate report', (_why, xml, message) => {
    const refused = refusal(() => parseAggregateReport(xml));
    expect(refused.code).toBe('NOT_AN_AGGREGATE_REPORT');
    expect(refused.message).toMatch(message);
  });

  it('refuses malformed XML, saying where', () => {
    for (const xml of ['<feedback><report_metadata></feedback>', '', 'not xml at all', '<feedback>&undefined;</feedback>', '<a/><b/>']) {
      expect(refusal(() => parseAggregateReport(xml)).code).toBe('MALFORMED_XML');
    }
  });

  it('refuses any DOCTYPE, so a billion laughs never expands', () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><feedback>&lol3;</feedback>`;
    expect(refusal(() => parseAggregateReport(laughs)).code).toBe('DTD_REFUSED');
    expect(refusal(() => parseAggregateReport('<!DOCTYPE feedback SYSTEM "file:///etc/passwd"><feedback/>')).code).toBe('DTD_REFUSED');
  });

  it('caps element depth and text length', () => {
    const deep = `${'<a>'.repeat(REPORT_LIMITS.xmlDepth + 1)}${'</a>'.repeat(REPORT_LIMITS.xmlDepth + 1)}`;
    expect(refusal(() => parseAggregateReport(deep)).message).toMatch(/nest more than 32 levels/);
    const longId = minimal({ metadata: `<report_metadata><report_id>${'x'.repeat(REPORT_LIMITS.xmlTextChars + 1)}</report_id></report_metadata>` });
    expect(refusal(() => parseAggregateReport(longId)).message).toMatch(/text of <report_id> is longer than 4096/);
  });

  it('does not count indentation between thousands of records against the text cap', () => {
    const rows = `\n    ${record('<source_ip>192.0.2.1</source_ip><count>1</count>')}`.repeat(2_000);
    expect(parseAggregateReport(minimal({ records: rows })).records).toHaveLength(2_000);
  });

  it('refuses one record past the cap, which is injectable', () => {
    const limits = { ...REPORT_LIMITS, aggregateRecords: 3 };
    const rows = (n: number): string => record('<source_ip>192.0.2.1</source_ip><count>1</count>').repeat(n);
    expect(parseAggregateReport(minimal({ records: rows(3) }), limits).records).toHaveLength(3);
    const refused = refusal(() => parseAggregateReport(minimal({ records: rows(4) }), limits));
    expect(refused.code).toBe('TOO_MANY_RECORDS');
    expect(refused.message).toMatch(/more than 3 records/);
  });
});
