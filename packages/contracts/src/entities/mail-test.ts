import { z } from '../zod.js';
import { idSchema, isoDateTime } from '../common.js';
import { findingSeveritySchema } from './check.js';

/**
 * Inbox Testing (issue 26): a one-time address the user sends a real message to; the intake receives
 * it with the SMTP conversation's facts and the scanner reads it end to end (connection, authentication,
 * headers, content), each finding explained with its fix, and a score out of 10 with the arithmetic.
 * Kept in `inbox_placement_tests` (the spec's table, extended).
 */

/** `test-<token>@<intakeDomain>`: the address of one test, open for MAIL_TEST_TTL_MINUTES. */
export function mailTestAddressOf(token: string, intakeDomain: string): string {
  return `test-${token}@${intakeDomain}`;
}
export const MAIL_TEST_TOKEN_PREFIX = 'test-';
/** The token in a test address: 24 lower-case letters and digits, like a report token. */
export const mailTestTokenSchema = z.string().regex(/^[a-z0-9]{24}$/, 'Unknown test address');
export const MAIL_TEST_TTL_MINUTES = 60;
/** Past tests are listed (and kept) this long. */
export const MAIL_TEST_RETENTION_DAYS = 30;

/**
 * waiting: the address is open; received: the message is in and being read; done: the analysis is
 * ready; failed: it could not be read (the error says why); expired: nothing arrived within the hour.
 */
export const mailTestStatuses = ['waiting', 'received', 'done', 'failed', 'expired'] as const;
export const mailTestStatusSchema = z.enum(mailTestStatuses);
export type MailTestStatus = z.infer<typeof mailTestStatusSchema>;

/** What the intake's SMTP server saw of the conversation (smtp-server's session), stored with the message. */
export const mailTestSessionSchema = z.object({
  clientAddress: z.string(),
  /** The EHLO/HELO name as given. */
  helo: z.string(),
  /** MAIL FROM, '' for the null reverse-path. */
  mailFrom: z.string(),
  rcptTo: z.array(z.string()),
  /** Null when the message came in plain text; the protocol ('TLSv1.3') and cipher when over STARTTLS. */
  tls: z.object({ protocol: z.string().nullable(), cipher: z.string().nullable() }).nullable(),
  receivedAt: isoDateTime,
  sizeBytes: z.number().int().nonnegative(),
});
export type MailTestSession = z.infer<typeof mailTestSessionSchema>;

export const mailTestGroups = ['connection', 'authentication', 'headers', 'content'] as const;
export const mailTestGroupSchema = z.enum(mailTestGroups);
export type MailTestGroup = z.infer<typeof mailTestGroupSchema>;

/** One thing the analysis found: what it is, why it matters, how to fix it, and what it cost the score. */
export const mailTestFindingSchema = z.object({
  code: z.string().regex(/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/),
  group: mailTestGroupSchema,
  severity: findingSeveritySchema,
  title: z.string(),
  explanation: z.string(),
  fix: z.string().nullable(),
  /** The clause it rests on, e.g. 'RFC 8058 §3.1' or 'Gmail sender guidelines'. */
  reference: z.string().nullable(),
  /** Points taken off the score of 10 (0 for information). */
  points: z.number().nonnegative(),
});
export type MailTestFinding = z.infer<typeof mailTestFindingSchema>;

const spfVerdict = z.object({
  /** The identity checked: the MAIL FROM domain, or the HELO name. */
  domain: z.string().nullable(),
  result: z.enum(['pass', 'fail', 'softfail', 'neutral', 'none', 'permerror', 'temperror']),
  explanation: z.string(),
});

export const dkimSignatureResultSchema = z.object({
  domain: z.string(),
  selector: z.string(),
  /** 'rsa-sha256', 'ed25519-sha256', …. */
  algorithm: z.string(),
  keyBits: z.number().int().nullable(),
  /** The l= tag: only this many body bytes are signed (anything appended is unsigned). */
  bodyLength: z.number().int().nullable(),
  /** The h= list, lower-case. */
  signedHeaders: z.array(z.string()),
  result: z.enum(['pass', 'fail', 'neutral', 'policy', 'temperror', 'permerror', 'none']),
  /** Why it did not pass, in plain words (null on pass). */
  reason: z.string().nullable(),
  /** d= is the From domain or shares its organisational domain (relaxed alignment, RFC 7489 §3.1.1). */
  aligned: z.boolean(),
});
export type DkimSignatureResult = z.infer<typeof dkimSignatureResultSchema>;

export const mailTestAnalysisSchema = z.object({
  connection: z.object({
    clientAddress: z.string(),
    /** PTR names of the address, and whether one of them resolves back to it (FCrDNS). */
    reverseDns: z.object({ names: z.array(z.string()), forwardConfirmed: z.boolean(), confirmedName: z.string().nullable() }),
    helo: z.string(),
    tls: z.object({ used: z.boolean(), protocol: z.string().nullable(), cipher: z.string().nullable() }),
    /** The address against the scanner's block lists (those passing their self-tests). */
    blocklists: z.array(z.object({ list: z.string(), listed: z.boolean(), answer: z.string().nullable() })),
  }),
  authentication: z.object({
    spf: z.object({ mailFrom: spfVerdict, helo: spfVerdict }),
    dkim: z.array(dkimSignatureResultSchema),
    dmarc: z.object({
      /** The RFC5322.From domain. */
      domain: z.string().nullable(),
      /** The published record, null when there is none. */
      record: z.string().nullable(),
      policy: z.string().nullable(),
      result: z.enum(['pass', 'fail', 'none', 'temperror', 'permerror']),
      spfAligned: z.boolean(),
      dkimAligned: z.boolean(),
    }),
    arc: z.object({
      /** none when the message carries no ARC set. */
      result: z.enum(['none', 'pass', 'fail']),
      instances: z.number().int().nonnegative(),
      reason: z.string().nullable(),
    }),
    bimi: z.object({
      result: z.enum(['pass', 'none', 'fail', 'skipped', 'temperror', 'declined']),
      /** The logo URL (l=) and certificate URL (a=) of the record, when there is one. */
      location: z.string().nullable(),
      authority: z.string().nullable(),
      reason: z.string().nullable(),
    }),
  }),
  headers: z.object({
    from: z.string().nullable(),
    fromDomain: z.string().nullable(),
    subject: z.string().nullable(),
    date: z.string().nullable(),
    messageId: z.string().nullable(),
    replyTo: z.string().nullable(),
    listUnsubscribe: z.object({ mailto: z.string().nullable(), https: z.string().nullable(), oneClick: z.boolean() }),
    precedence: z.string().nullable(),
    feedbackId: z.string().nullable(),
  }),
  content: z.object({
    sizeBytes: z.number().int().nonnegative(),
    textPart: z.boolean(),
    htmlPart: z.boolean(),
    links: z.array(
      z.object({
        href: z.string(),
        host: z.string().nullable(),
        text: z.string().nullable(),
        plainHttp: z.boolean(),
        shortener: z.boolean(),
        /** The link text shows a different host than the one it goes to. */
        textMismatch: z.boolean(),
        /** Listed on a domain block list (DBL, URIBL, …). */
        blocklisted: z.boolean(),
      }),
    ),
    images: z.number().int().nonnegative(),
    /** Words of visible text in the HTML part (an image-only message has next to none). */
    htmlWords: z.number().int().nonnegative(),
  }),
  findings: z.array(mailTestFindingSchema),
  /** 10 minus the findings' points, not below 0, one decimal: `deductions` is the arithmetic. */
  score: z.object({ value: z.number().min(0).max(10), deductions: z.array(z.object({ code: z.string(), points: z.number() })) }),
});
export type MailTestAnalysis = z.infer<typeof mailTestAnalysisSchema>;

export const mailTestSummarySchema = z.object({
  id: idSchema,
  address: z.string(),
  status: mailTestStatusSchema,
  createdAt: isoDateTime,
  expiresAt: isoDateTime,
  receivedAt: isoDateTime.nullable(),
  fromAddress: z.string().nullable(),
  subject: z.string().nullable(),
  score: z.number().nullable(),
});
export type MailTestSummary = z.infer<typeof mailTestSummarySchema>;

export const mailTestSchema = mailTestSummarySchema.extend({
  session: mailTestSessionSchema.nullable(),
  analysis: mailTestAnalysisSchema.nullable(),
  /** Why a failed test failed. */
  error: z.string().nullable(),
});
export type MailTest = z.infer<typeof mailTestSchema>;
