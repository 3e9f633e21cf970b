import type { DkimSignatureResult } from '@sendwell/contracts';
import { describe, expect, it } from 'vitest';
import { checkOneClickSigned } from '../../src/mail-test/analyse-mail-test.js';
import { readHeaders } from '../../src/mail-test/headers.js';
import { parseMessage } from '../../src/mail-test/parse-message.js';
import { buildMessage, ONE_CLICK_HEADERS, SENT_AT, type MessageSpec } from './messages/build-message.js';

const receivedAt = new Date(SENT_AT.getTime() + 5_000);

async function headersOf(spec: MessageSpec) {
  return readHeaders(await parseMessage(buildMessage(spec)), receivedAt);
}
const codes = (part: { findings: Array<{ code: string }> }) => part.findings.map((f) => f.code);

describe('readHeaders', () => {
  it('reads a well-formed bulk message without a finding', async () => {
    const part = await headersOf({ headers: [...ONE_CLICK_HEADERS, ['Feedback-ID', 'nov:cust42:newsletter:examplesender']] });
    expect(part.findings).toEqual([]);
    expect(part.value).toEqual({
      from: 'news@example.com',
      fromDomain: 'example.com',
      subject: 'Our November news',
      date: 'Fri, 27 Nov 2026 09:30:00 +0000',
      messageId: '<20261127093000.abc123@example.com>',
      replyTo: null,
      listUnsubscribe: { mailto: 'mailto:unsubscribe@example.com?subject=unsubscribe', https: 'https://example.com/unsubscribe/t0k3n', oneClick: true },
      precedence: null,
      feedbackId: 'nov:cust42:newsletter:examplesender',
    });
  });

  it('finds a missing From, Date, Message-ID and Subject, each with its fix and points', async () => {
    const part = await headersOf({ from: null, date: null, messageId: null, subject: null, headers: ONE_CLICK_HEADERS });
    expect(codes(part)).toEqual(['FROM_MISSING', 'SUBJECT_MISSING', 'DATE_MISSING', 'MESSAGE_ID_MISSING']);
    expect(part.findings.map((f) => [f.severity, f.points])).toEqual([
      ['error', 2],
      ['warning', 0.5],
      ['error', 1],
      ['error', 1],
    ]);
    expect(part.findings.every((f) => f.fix !== null && f.reference !== null && f.group === 'headers')).toBe(true);
    expect(part.value).toMatchObject({ from: null, fromDomain: null, date: null, messageId: null });
  });

  it('wants exactly one From mailbox', async () => {
    expect(codes(await headersOf({ headers: [...ONE_CLICK_HEADERS, ['From', 'other@example.org']] }))).toEqual(['FROM_NOT_ONE_MAILBOX']);
    const two = await headersOf({ from: 'a@example.com, b@example.org', headers: ONE_CLICK_HEADERS });
    expect(codes(two)).toEqual(['FROM_NOT_ONE_MAILBOX']);
    expect(two.value.fromDomain).toBe('example.com');
    expect(codes(await headersOf({ from: 'not-an-address', headers: ONE_CLICK_HEADERS }))).toEqual(['FROM_INVALID']);
  });

  it('reads dates that cannot be parsed or are far from the arrival', async () => {
    expect(codes(await headersOf({ date: 'yesterday at noon', headers: ONE_CLICK_HEADERS }))).toEqual(['DATE_INVALID']);
    const future = new Date(receivedAt.getTime() + 2 * 3600_000).toUTCString();
    const stale = new Date(receivedAt.getTime() - 3 * 86400_000).toUTCString();
    const ahead = await headersOf({ date: future, headers: ONE_CLICK_HEADERS });
    expect(codes(ahead)).toEqual(['DATE_SKEWED']);
    expect(ahead.findings[0]?.title).toMatch(/future/);
    expect(codes(await headersOf({ date: stale, headers: ONE_CLICK_HEADERS }))).toEqual(['DATE_SKEWED']);
    // Ten minutes of clock drift is nothing.
    expect(codes(await headersOf({ date: new Date(receivedAt.getTime() + 600_000).toUTCString(), headers: ONE_CLICK_HEADERS }))).toEqual([]);
  });

  it('checks the form of the Message-ID', async () => {
    expect(codes(await headersOf({ messageId: 'no-brackets@example.com', headers: ONE_CLICK_HEADERS }))).toEqual(['MESSAGE_ID_MALFORMED']);
    expect(codes(await headersOf({ messageId: '<a@b@example.com>', headers: ONE_CLICK_HEADERS }))).toEqual(['MESSAGE_ID_MALFORMED']);
    const local = await headersOf({ messageId: '<123.456@mailhost>', headers: ONE_CLICK_HEADERS });
    expect(local.findings.map((f) => [f.code, f.severity, f.points])).toEqual([['MESSAGE_ID_LOCAL_HOST', 'info', 0]]);
  });

  it('asks for List-Unsubscribe and one-click unsubscribe with an https address', async () => {
    const none = await headersOf({});
    expect(codes(none)).toEqual(['LIST_UNSUBSCRIBE_MISSING']);
    expect(none.findings[0]?.explanation).toMatch(/Gmail and Yahoo/);
    expect(none.value.listUnsubscribe).toEqual({ mailto: null, https: null, oneClick: false });

    const mailtoOnly = await headersOf({ headers: [['List-Unsubscribe', '<mailto:u@example.com>']] });
    expect(codes(mailtoOnly)).toEqual(['ONE_CLICK_MISSING']);

    const postWithoutHttps = await headersOf({ headers: [['List-Unsubscribe', '<mailto:u@example.com>, <http://example.com/u>'], ['List-Unsubscribe-Post', 'List-Unsubscribe=One-Click']] });
    expect(codes(postWithoutHttps)).toEqual(['ONE_CLICK_WITHOUT_HTTPS']);
    expect(postWithoutHttps.value.listUnsubscribe).toEqual({ mailto: 'mailto:u@example.com', https: null, oneClick: false });

    expect(codes(await headersOf({ headers: [['List-Unsubscribe', 'https://example.com/u']] }))).toEqual(['LIST_UNSUBSCRIBE_UNUSABLE']);
    expect(codes(await headersOf({ headers: [ONE_CLICK_HEADERS[0]!, ['List-Unsubscribe-Post', 'yes please']] }))).toEqual(['ONE_CLICK_POST_INVALID']);
  });

  it('notes Reply-To at another organisation, Precedence: bulk and a malformed Feedback-ID as information only', async () => {
    const part = await headersOf({
      headers: [...ONE_CLICK_HEADERS, ['Reply-To', 'help@desk.example.org'], ['Precedence', 'bulk'], ['Feedback-ID', 'justone']],
    });
    expect(part.findings.map((f) => [f.code, f.severity, f.points])).toEqual([
      ['REPLY_TO_OTHER_DOMAIN', 'info', 0],
      ['PRECEDENCE_BULK', 'info', 0],
      ['FEEDBACK_ID_MALFORMED', 'info', 0],
    ]);
    expect(part.value).toMatchObject({ replyTo: 'help@desk.example.org', precedence: 'bulk', feedbackId: 'justone' });
    // A subdomain of the From domain's organisation is the same sender.
    expect(codes(await headersOf({ headers: [...ONE_CLICK_HEADERS, ['Reply-To', 'support@help.example.com']] }))).toEqual([]);
  });
});

describe('one-click unsubscribe and DKIM (RFC 8058 §4)', () => {
  const signature = (signedHeaders: string[], result: DkimSignatureResult['result'] = 'pass'): DkimSignatureResult => ({
    domain: 'example.com',
    selector: 's1',
    algorithm: 'rsa-sha256',
    keyBits: 2048,
    bodyLength: null,
    signedHeaders,
    result,
    reason: null,
    aligned: true,
  });
  const oneClick = { mailto: null, https: 'https://example.com/u', oneClick: true };

  it('counts one-click only when a passing signature covers both headers', () => {
    expect(checkOneClickSigned(oneClick, [signature(['from', 'list-unsubscribe', 'list-unsubscribe-post'])])).toEqual({ value: oneClick, findings: [] });
    for (const dkim of [[], [signature(['from', 'list-unsubscribe'])], [signature(['list-unsubscribe', 'list-unsubscribe-post'], 'fail')]]) {
      const part = checkOneClickSigned(oneClick, dkim);
      expect(part.value.oneClick).toBe(false);
      expect(part.findings.map((f) => [f.code, f.group, f.points])).toEqual([['UNSUBSCRIBE_NOT_SIGNED', 'headers', 1]]);
    }
  });

  it('says nothing of signing when the message asks for no one-click', () => {
    expect(checkOneClickSigned({ mailto: 'mailto:u@example.com', https: null, oneClick: false }, [])).toEqual({
      value: { mailto: 'mailto:u@example.com', https: null, oneClick: false },
      findings: [],
    });
  });
});
