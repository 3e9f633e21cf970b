import type { MailTestAnalysis, MailTestFinding } from '@sendwell/contracts';
import { organizationalDomain } from '../checks/shared/dmarc/org-domain.js';
import { finding } from './finding.js';
import { headerOf, type ParsedMessage } from './parse-message.js';
import type { AnalysisPart } from './types.js';

type Headers = MailTestAnalysis['headers'];

/** A Date more than this ahead of the arrival is "in the future" (clocks drift by seconds, not hours). */
const MAX_DATE_AHEAD_MS = 60 * 60 * 1000;
/** A Date more than this before the arrival is stale: queued for a day, or a replayed message. */
const MAX_DATE_BEHIND_MS = 24 * 60 * 60 * 1000;
/** Characters of a header value shown back. */
const SHOWN_CHARS = 998;

// RFC 5322 §3.6.4 msg-id: "<" id-left "@" id-right ">", neither side with blanks, brackets or another "@".
const MESSAGE_ID = /^<[^\s<>@]+@([^\s<>@]+)>$/;
// RFC 2369 §2: each URI of List-Unsubscribe sits between angle brackets.
const BRACKETED_URI = /<([^<>]*)>/g;
const ONE_CLICK_VALUE = 'list-unsubscribe=one-click';
const BULK_PRECEDENCE = new Set(['bulk', 'list', 'junk']);

const group = 'headers' as const;

/**
 * The header fields mailbox providers and filters read first: From, Subject, Date, Message-ID,
 * Reply-To, the unsubscribe headers (RFC 2369, RFC 8058), Precedence and Feedback-ID. Whether the
 * unsubscribe headers are signed needs the DKIM part: analyse-mail-test.ts checks that.
 */
export function readHeaders(message: ParsedMessage, receivedAt: Date): AnalysisPart<Headers> {
  const findings: MailTestFinding[] = [];
  const from = readFrom(message, findings);
  const subject = headerOf(message, 'subject');
  if (subject === null || subject.trim() === '') {
    findings.push(
      finding(group, {
        code: 'SUBJECT_MISSING',
        severity: 'warning',
        title: 'The message has no subject',
        explanation: 'Filters treat a message without a subject as careless or automated, and readers skip it in a list of mail.',
        fix: 'Give every message a Subject line that says what it is about.',
        reference: 'RFC 5322 §3.6.5',
        points: 0.5,
      }),
    );
  }
  const date = readDate(message, receivedAt, findings);
  const messageId = readMessageId(message, findings);
  const replyTo = readReplyTo(message, from.domain, findings);
  const listUnsubscribe = readListUnsubscribe(message, findings);
  const precedence = readPrecedence(message, findings);
  const feedbackId = readFeedbackId(message, findings);
  return {
    value: { from: from.address, fromDomain: from.domain, subject: shown(subject), date, messageId, replyTo, listUnsubscribe, precedence, feedbackId },
    findings,
  };
}

function shown(value: string | null): string | null {
  return value === null ? null : value.slice(0, SHOWN_CHARS);
}

function domainOf(address: string): string | null {
  const at = address.lastIndexOf('@');
  const domain = at > 0 ? address.slice(at + 1).toLowerCase().replace(/\.$/, '') : '';
  return domain.includes('.') ? domain : null;
}

/** RFC 5322 §3.6: exactly one From field; DMARC (RFC 7489 §6.6.1) needs exactly one author domain. */
function readFrom(message: ParsedMessage, findings: MailTestFinding[]): { address: string | null; domain: string | null } {
  const fields = message.headers.filter((field) => field.name === 'from').length;
  const mailboxes = message.fromMailboxes;
  const first = mailboxes[0];
  if (fields === 0 || first === undefined) {
    findings.push(
      finding(group, {
        code: 'FROM_MISSING',
        severity: 'error',
        title: 'The message has no From address',
        explanation: 'Every message must say who it is from. Without a From address mailbox providers reject the message or file it as spam, and DMARC cannot be checked.',
        fix: 'Set a From header with one address at your own domain, e.g. "Example News <news@example.com>".',
        reference: 'RFC 5322 §3.6',
        points: 2,
      }),
    );
    return { address: null, domain: null };
  }
  if (fields > 1 || mailboxes.length > 1) {
    findings.push(
      finding(group, {
        code: 'FROM_NOT_ONE_MAILBOX',
        severity: 'error',
        title: fields > 1 ? 'The message has more than one From header' : 'The From header names more than one address',
        explanation: 'Mailbox providers check DMARC against a single author. A message with several From headers or addresses is rejected by Gmail and treated as spoofing by many filters.',
        fix: 'Send with exactly one From header holding exactly one address.',
        reference: 'RFC 5322 §3.6; RFC 7489 §6.6.1',
        points: 1.5,
      }),
    );
  }
  const domain = domainOf(first.address);
  if (domain === null) {
    findings.push(
      finding(group, {
        code: 'FROM_INVALID',
        severity: 'error',
        title: 'The From address is not a valid address',
        explanation: `The From header holds "${first.address.slice(0, 100)}", which is not an address at a domain, so neither replies nor DMARC can work.`,
        fix: 'Use a full address at your own domain in the From header.',
        reference: 'RFC 5322 §3.4.1',
        points: 2,
      }),
    );
  }
  return { address: first.address === '' ? null : first.address, domain };
}

function readDate(message: ParsedMessage, receivedAt: Date, findings: MailTestFinding[]): string | null {
  const value = headerOf(message, 'date');
  if (value === null) {
    findings.push(
      finding(group, {
        code: 'DATE_MISSING',
        severity: 'error',
        title: 'The message has no Date header',
        explanation: 'The Date header is required. Filters score a message without one as badly formed, and some servers reject it.',
        fix: 'Let your sending software or library set the Date header when the message is sent.',
        reference: 'RFC 5322 §3.6',
        points: 1,
      }),
    );
    return null;
  }
  const time = Date.parse(value);
  if (Number.isNaN(time)) {
    findings.push(
      finding(group, {
        code: 'DATE_INVALID',
        severity: 'error',
        title: 'The Date header cannot be read',
        explanation: `"${value.slice(0, 100)}" is not a date in the form the standard requires, so receivers cannot tell when the message was written and filters count it against the message.`,
        fix: 'Write the date as RFC 5322 requires, e.g. "Fri, 27 Nov 2026 09:30:00 +0000"; mail libraries do this for you.',
        reference: 'RFC 5322 §3.3',
        points: 1,
      }),
    );
  } else if (time - receivedAt.getTime() > MAX_DATE_AHEAD_MS || receivedAt.getTime() - time > MAX_DATE_BEHIND_MS) {
    const ahead = time > receivedAt.getTime();
    findings.push(
      finding(group, {
        code: 'DATE_SKEWED',
        severity: 'warning',
        title: ahead ? 'The Date header is in the future' : 'The Date header is more than a day old',
        explanation: ahead
          ? 'The message claims to be written more than an hour after it arrived. Spam filters score future dates, and inboxes sort the message above newer mail.'
          : 'The message claims to be written more than a day before it arrived. Old dates are a sign of a stuck queue or a replayed message, and inboxes bury it under newer mail.',
        fix: "Check the sending server's clock (use NTP) and set the Date when the message is actually sent, not when it was drafted.",
        reference: 'RFC 5322 §3.6.1',
        points: 0.5,
      }),
    );
  }
  return shown(value);
}

function readMessageId(message: ParsedMessage, findings: MailTestFinding[]): string | null {
  const value = headerOf(message, 'message-id');
  if (value === null) {
    findings.push(
      finding(group, {
        code: 'MESSAGE_ID_MISSING',
        severity: 'error',
        title: 'The message has no Message-ID',
        explanation: 'Gmail rejects or spam-files messages without a Message-ID, and every receiver uses it to spot duplicates and thread replies.',
        fix: 'Let your sending software set a unique Message-ID on every message, e.g. "<unique-id@example.com>" at your own domain.',
        reference: 'RFC 5322 §3.6.4; Gmail sender guidelines',
        points: 1,
      }),
    );
    return null;
  }
  const match = MESSAGE_ID.exec(value);
  if (match === null) {
    findings.push(
      finding(group, {
        code: 'MESSAGE_ID_MALFORMED',
        severity: 'warning',
        title: 'The Message-ID is not well formed',
        explanation: `"${value.slice(0, 100)}" is not in the form <id@domain>. Filters count a malformed Message-ID as a sign of badly written bulk software.`,
        fix: 'Generate Message-IDs as "<unique-part@your-domain>", with the angle brackets and one "@".',
        reference: 'RFC 5322 §3.6.4',
        points: 0.5,
      }),
    );
  } else if (!(match[1] ?? '').includes('.')) {
    findings.push(
      finding(group, {
        code: 'MESSAGE_ID_LOCAL_HOST',
        severity: 'info',
        title: 'The Message-ID names a machine, not a domain',
        explanation: `The part after "@" is "${(match[1] ?? '').slice(0, 100)}": the name of a local machine. It works, but shows your internal host names and looks unlike mail from a configured server.`,
        fix: 'Use your sending domain after the "@" of the Message-ID.',
        reference: 'RFC 5322 §3.6.4',
        points: 0,
      }),
    );
  }
  return shown(value);
}

function readReplyTo(message: ParsedMessage, fromDomain: string | null, findings: MailTestFinding[]): string | null {
  const first = message.replyTo[0];
  if (first === undefined) return shown(headerOf(message, 'reply-to'));
  const replyDomain = domainOf(first.address);
  if (replyDomain !== null && fromDomain !== null && organizationalDomain(replyDomain) !== organizationalDomain(fromDomain)) {
    findings.push(
      finding(group, {
        code: 'REPLY_TO_OTHER_DOMAIN',
        severity: 'info',
        title: 'Replies go to another domain',
        explanation: `Replies go to ${replyDomain}, not to ${fromDomain}. That is common with help desks and CRMs, but it is also what phishing does, so some filters look harder at such messages.`,
        fix: null,
        reference: 'RFC 5322 §3.6.2',
        points: 0,
      }),
    );
  }
  return first.address === '' ? null : first.address;
}

/** RFC 2369 §3.2 List-Unsubscribe and RFC 8058 one-click: a POST to the https URI, no confirmation page. */
function readListUnsubscribe(message: ParsedMessage, findings: MailTestFinding[]): Headers['listUnsubscribe'] {
  const value = headerOf(message, 'list-unsubscribe');
  const post = headerOf(message, 'list-unsubscribe-post');
  if (value === null) {
    findings.push(
      finding(group, {
        code: 'LIST_UNSUBSCRIBE_MISSING',
        severity: 'warning',
        title: 'No unsubscribe header',
        explanation:
          'Without a List-Unsubscribe header, mailbox providers cannot show their own unsubscribe button, so recipients press "Report spam" instead. Gmail and Yahoo require one-click unsubscribe for marketing and subscribed mail since 2024.',
        fix: 'Add "List-Unsubscribe: <https://example.com/unsubscribe/TOKEN>, <mailto:unsubscribe@example.com>" and "List-Unsubscribe-Post: List-Unsubscribe=One-Click", and sign both with DKIM.',
        reference: 'RFC 2369 §3.2; RFC 8058; Gmail sender guidelines',
        points: 1.5,
      }),
    );
    return { mailto: null, https: null, oneClick: false };
  }
  let mailto: string | null = null;
  let https: string | null = null;
  for (const [, uri = ''] of value.matchAll(BRACKETED_URI)) {
    const trimmed = uri.trim();
    const scheme = trimmed.slice(0, 8).toLowerCase();
    if (mailto === null && scheme.startsWith('mailto:')) mailto = trimmed;
    else if (https === null && scheme === 'https://') https = trimmed;
  }
  const postIsOneClick = post !== null && post.trim().toLowerCase() === ONE_CLICK_VALUE;
  if (mailto === null && https === null) {
    findings.push(
      finding(group, {
        code: 'LIST_UNSUBSCRIBE_UNUSABLE',
        severity: 'warning',
        title: 'The unsubscribe header has no usable address',
        explanation: 'The List-Unsubscribe header holds neither a mailto: nor an https: address in angle brackets, so mailbox providers cannot offer their unsubscribe button.',
        fix: 'Write each address in angle brackets: "List-Unsubscribe: <https://example.com/unsubscribe/TOKEN>, <mailto:unsubscribe@example.com>".',
        reference: 'RFC 2369 §2',
        points: 1,
      }),
    );
  } else if (post === null) {
    findings.push(
      finding(group, {
        code: 'ONE_CLICK_MISSING',
        severity: 'warning',
        title: 'Unsubscribing takes more than one click',
        explanation:
          'The message has an unsubscribe address but no List-Unsubscribe-Post header, so providers cannot unsubscribe the recipient in one click. Gmail and Yahoo require one-click unsubscribe for marketing and subscribed mail since 2024.',
        fix: 'Add "List-Unsubscribe-Post: List-Unsubscribe=One-Click", make the https unsubscribe address accept a POST that unsubscribes at once, and sign both headers with DKIM.',
        reference: 'RFC 8058 §3.1; Gmail sender guidelines',
        points: 1,
      }),
    );
  } else if (!postIsOneClick) {
    findings.push(
      finding(group, {
        code: 'ONE_CLICK_POST_INVALID',
        severity: 'warning',
        title: 'The one-click header has the wrong value',
        explanation: `List-Unsubscribe-Post must be exactly "List-Unsubscribe=One-Click"; it is "${post.slice(0, 100)}", so providers ignore it.`,
        fix: 'Set "List-Unsubscribe-Post: List-Unsubscribe=One-Click".',
        reference: 'RFC 8058 §3.1',
        points: 1,
      }),
    );
  } else if (https === null) {
    findings.push(
      finding(group, {
        code: 'ONE_CLICK_WITHOUT_HTTPS',
        severity: 'error',
        title: 'One-click unsubscribe has no https address',
        explanation: 'The message asks for one-click unsubscribe, but its List-Unsubscribe header has no https: address to send the POST to, so the one-click cannot work.',
        fix: 'Add an https: address to List-Unsubscribe that unsubscribes the recipient when it receives a POST, without any page to confirm.',
        reference: 'RFC 8058 §3.1',
        points: 1,
      }),
    );
  }
  return { mailto: shown(mailto), https: shown(https), oneClick: postIsOneClick && https !== null };
}

function readPrecedence(message: ParsedMessage, findings: MailTestFinding[]): string | null {
  const value = headerOf(message, 'precedence');
  if (value !== null && BULK_PRECEDENCE.has(value.trim().toLowerCase())) {
    findings.push(
      finding(group, {
        code: 'PRECEDENCE_BULK',
        severity: 'info',
        title: `The message is marked "Precedence: ${value.trim().toLowerCase()}"`,
        explanation: 'This tells auto-responders (out-of-office replies) not to answer, which is right for bulk mail. Gmail ignores it for filtering; some older filters treat such mail as lower priority.',
        fix: null,
        reference: 'RFC 3834 §2',
        points: 0,
      }),
    );
  }
  return shown(value);
}

/** Gmail's Feedback-ID "a:b:c:SenderId": up to three optional identifiers, then the sender's own, which is required. */
function readFeedbackId(message: ParsedMessage, findings: MailTestFinding[]): string | null {
  const value = headerOf(message, 'feedback-id');
  if (value === null) return null;
  const fields = value.trim().split(':');
  if (fields.length < 2 || fields.length > 4 || (fields.at(-1) ?? '').trim() === '') {
    findings.push(
      finding(group, {
        code: 'FEEDBACK_ID_MALFORMED',
        severity: 'info',
        title: 'The Feedback-ID is not in Gmail’s form',
        explanation: 'Gmail’s Feedback Loop groups spam complaints by the Feedback-ID header, which must be "a:b:c:SenderId": up to three identifiers you choose, then your sender id. This one will not be reported.',
        fix: 'Write it as "Feedback-ID: campaign:customer:type:yoursenderid", with your sender id last.',
        reference: 'Gmail Feedback Loop',
        points: 0,
      }),
    );
  }
  return shown(value);
}
