import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REPORT_LIMITS } from '../limits.js';
import { readFailureReport } from './read-failure-report.js';
import type { FailureReport } from './types.js';
import { refusal } from '../refusal-testing.js';

const fixture = (name: string) => readFileSync(new URL(`../../../test/fixtures/failure/${name}`, import.meta.url));
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Nothing of a person or of the original message may survive into what is stored. */
function expectRedacted(report: FailureReport, secrets: string[]): void {
  const stored = JSON.stringify(report);
  for (const secret of secrets) expect(stored.toLowerCase()).not.toContain(secret.toLowerCase());
}

const none = { spfDns: [], deliveryResult: null, reportedUris: [] };

describe('readFailureReport: RFC 6591 ARF', () => {
  it('reads the RFC 6591 DKIM example, with text/rfc822-headers', () => {
    const report = readFailureReport(fixture('rfc6591-dkim-headers.eml'));
    expect(report).toEqual({
      format: 'arf',
      authFailure: 'signature',
      reportedDomain: 'example.com',
      sourceIp: '192.0.2.1',
      arrivalDate: new Date('2005-03-08T18:00:00Z'),
      originalMailFrom: '<***@example.com>',
      originalRcptTo: ['<***@example.net>'],
      authenticationResults: ['mail.example.net; dkim=fail (bad signature) header.i=@example.com'],
      dkim: { domain: 'example.com', selector: 'dkim1', identity: '@example.com' },
      results: { spf: null, dkim: 'fail', dmarc: null },
      alignment: { spf: null, dkim: null },
      original: { fromDomain: 'example.com', returnPathDomain: 'example.com', messageIdSha256: sha256('<1234.5678@smtp-out.example.com>') },
      ...none,
    } satisfies FailureReport);
    expectRedacted(report, ['randomuser', 'user@', 'Hey, this is what', '1234.5678', 'VGhpcyBpcyBh']);
  });

  it('reads a DMARC report with the whole original message as message/rfc822', () => {
    const report = readFailureReport(fixture('dmarc-arf-rfc822.eml'));
    expect(report).toEqual({
      format: 'arf',
      authFailure: 'dmarc',
      reportedDomain: 'example.com',
      sourceIp: '203.0.113.7',
      arrivalDate: new Date('2018-06-11T13:05:40Z'),
      originalMailFrom: '***@bulk.example.com',
      originalRcptTo: ['<***@receiver.example>', '***@receiver.example'],
      authenticationResults: [
        'receiver.example; dmarc=fail (p=reject) header.from=example.com; spf=pass smtp.mailfrom=***@bulk.example.com; dkim=fail (signature verification failed) header.d=example.com header.i=***@example.com',
      ],
      dkim: { domain: 'example.com', selector: 's2018', identity: '***@example.com' },
      spfDns: ['txt : bulk.example.com : "v=spf1 ip4:203.0.113.0/24 -all"'],
      deliveryResult: 'reject',
      results: { spf: 'pass', dkim: 'fail', dmarc: 'fail' },
      alignment: { spf: 'fail', dkim: 'fail' },
      reportedUris: ['mailto:***@example.com?subject=unsubscribe'],
      original: { fromDomain: 'example.com', returnPathDomain: 'bulk.example.com', messageIdSha256: sha256('<a1b2c3d4@mail.example.com>') },
    } satisfies FailureReport);
    expectRedacted(report, ['alice', 'bob', 'carol', 'payroll', 'Confidential', 'a1b2c3d4']);
  });

  it('reads CRLF line ends as LF', () => {
    const crlf = Buffer.from(fixture('dmarc-arf-rfc822.eml').toString().replaceAll('\n', '\r\n'));
    expect(readFailureReport(crlf)).toEqual(readFailureReport(fixture('dmarc-arf-rfc822.eml')));
  });

  it('reads Identity-Alignment (RFC 7489 §7.3) as which identities aligned', () => {
    const aligned = fixture('dmarc-arf-rfc822.eml').toString().replace('Identity-Alignment: none', 'Identity-Alignment: dkim');
    expect(readFailureReport(Buffer.from(aligned)).alignment).toEqual({ spf: 'fail', dkim: 'pass' });
  });

  it('refuses a feedback report that is not about an authentication failure (the RFC 5965 abuse example)', () => {
    const refused = refusal(() => readFailureReport(fixture('rfc5965-abuse.eml')));
    expect(refused.code).toBe('NOT_A_FAILURE_REPORT');
    expect(refused.message).toBe('This feedback report is of type "abuse", not an authentication failure report (RFC 6591).');
  });
});

describe('readFailureReport: plain text', () => {
  it("reads OpenDMARC's report with the original headers pasted below", () => {
    const report = readFailureReport(fixture('opendmarc-plain-text.eml'));
    expect(report).toEqual({
      format: 'plain-text',
      authFailure: 'dmarc',
      reportedDomain: 'example.com',
      sourceIp: '192.0.2.44',
      arrivalDate: new Date('2018-02-19T07:49:33Z'),
      originalMailFrom: null,
      originalRcptTo: [],
      authenticationResults: [],
      dkim: { domain: null, selector: null, identity: null },
      results: { spf: null, dkim: null, dmarc: 'reject' },
      alignment: { spf: 'fail', dkim: 'pass' },
      original: { fromDomain: 'example.com', returnPathDomain: 'spoof.example.net', messageIdSha256: sha256('<spoof-778@spoof.example.net>') },
      ...none,
    } satisfies FailureReport);
    expectRedacted(report, ['billing.team', 'victim', 'spammer.local', 'invoice', 'Please pay', 'spoof-778']);
  });

  it('reads a quoted-printable report nested in multiparts, with base64 headers attached', () => {
    const report = readFailureReport(fixture('plain-text-attached-headers.eml'));
    expect(report).toMatchObject({
      format: 'plain-text',
      reportedDomain: 'example.org',
      sourceIp: '2001:db8::25',
      arrivalDate: new Date('2024-05-02T08:00:00Z'),
      results: { spf: null, dkim: null, dmarc: 'quarantine' },
      alignment: { spf: 'fail', dkim: 'fail' },
      original: { fromDomain: 'example.org', returnPathDomain: 'news.example.org', messageIdSha256: sha256('<digest-42@news.example.org>') },
    });
    expectRedacted(report, ['mailer.daemon', 'news.editor', 'reader.name', 'Dana', 'digest-42']);
  });
});

describe('readFailureReport refusals', () => {
  it('refuses a message that is neither form', () => {
    const letter = Buffer.from('From: a@example.com\nSubject: hello\n\nSender Domain: only one label here\n');
    expect(refusal(() => readFailureReport(letter)).code).toBe('NOT_A_FAILURE_REPORT');
    expect(refusal(() => readFailureReport(new Uint8Array())).code).toBe('NOT_A_FAILURE_REPORT');
  });

  it('refuses a message over the input cap before reading it', () => {
    const limits = { ...REPORT_LIMITS, inputBytes: 1000 };
    expect(refusal(() => readFailureReport(fixture('dmarc-arf-rfc822.eml'), limits)).code).toBe('TOO_LARGE');
  });

  it('does not follow multiparts past the nesting cap', () => {
    const limits = { ...REPORT_LIMITS, nestingDepth: 1 };
    expect(refusal(() => readFailureReport(fixture('plain-text-attached-headers.eml'), limits)).code).toBe('NOT_A_FAILURE_REPORT');
  });
});
