import { z } from '../zod.js';
import { idSchema, isoDateTime } from '../common.js';
import { evidenceSources, mailboxProviders } from '../sender-requirement-names.js';

export { EVIDENCE_SOURCE_LABELS, evidenceSources, MAILBOX_PROVIDER_NAMES, mailboxProviders, SENDER_REQUIREMENTS_PLAN_MESSAGE } from '../sender-requirement-names.js';

/**
 * The sender requirements verdict (issue 26): what Gmail and Yahoo (since February 2024) and
 * Microsoft's Outlook.com (since May 2025) require of bulk senders, each requirement with its status
 * and the evidence behind it from three sources: the DNS scan, the mail-flow aggregate reports and the
 * latest test message. The intake judges it (services/intake/src/sender-requirements) and keeps the
 * latest verdict per domain; the reports render the kept one.
 */


export const mailboxProviderSchema = z.enum(mailboxProviders);
export type MailboxProvider = z.infer<typeof mailboxProviderSchema>;

export const senderRequirementIds = ['spf', 'dkim', 'dmarc', 'alignment', 'reverse_dns', 'tls', 'one_click_unsubscribe', 'message_format', 'complaint_rate'] as const;
export const senderRequirementIdSchema = z.enum(senderRequirementIds);
export type SenderRequirementId = z.infer<typeof senderRequirementIdSchema>;

export const evidenceSourceSchema = z.enum(evidenceSources);
export type EvidenceSource = z.infer<typeof evidenceSourceSchema>;

/**
 * met / unmet: the evidence says so; unknown: no source could tell (no scan, no reports, no test
 * message yet); not_measurable: only the mailbox providers can see it (the complaint rate).
 */
export const senderRequirementStatuses = ['met', 'unmet', 'unknown', 'not_measurable'] as const;
export const senderRequirementStatusSchema = z.enum(senderRequirementStatuses);
export type SenderRequirementStatus = z.infer<typeof senderRequirementStatusSchema>;

/** A share of authorised mail failing a requirement at or above this makes it unmet (the bar the policy readiness uses too: 0.5%). */
export const SENDER_REQUIREMENT_FAILING_SHARE = 0.005;
/** Mail-flow evidence covers this many days up to today (within what the plan keeps). */
export const SENDER_REQUIREMENT_MAIL_FLOW_DAYS = 30;
/** A test message older than this is no longer evidence. */
export const SENDER_REQUIREMENT_TEST_DAYS = 30;

export const requirementEvidenceSchema = z.object({
  source: evidenceSourceSchema,
  status: z.enum(['met', 'unmet']),
  /** What was seen, with its figures, in plain words. */
  detail: z.string(),
  /** When it was seen: the scan's completion, the window's last day, the test message's arrival. */
  observedAt: isoDateTime,
});
export type RequirementEvidence = z.infer<typeof requirementEvidenceSchema>;

export const senderRequirementSchema = z.object({
  id: senderRequirementIdSchema,
  title: z.string(),
  /** What the providers ask, in one sentence. */
  description: z.string(),
  providers: z.array(mailboxProviderSchema),
  /** Unmet when any evidence is unmet, met when some is met and none unmet, else unknown (or not_measurable). */
  status: senderRequirementStatusSchema,
  evidence: z.array(requirementEvidenceSchema),
  /** What to do, when unmet (or unknown: how to get evidence). */
  fix: z.string().nullable(),
  /** Where to read more, or (complaint rate) where the providers show it. */
  links: z.array(z.object({ label: z.string(), url: z.string() })),
});
export type SenderRequirement = z.infer<typeof senderRequirementSchema>;

/** Why a source gave no evidence, or what it covered. */
export const evidenceSourceStateSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('used'), observedAt: isoDateTime, summary: z.string() }),
  /** The plan does not include it (mail flow: paid plans; test messages: standard and above). */
  z.object({ state: z.literal('plan'), summary: z.string() }),
  z.object({ state: z.literal('none'), summary: z.string() }),
]);
export type EvidenceSourceState = z.infer<typeof evidenceSourceStateSchema>;

export const senderRequirementsSchema = z.object({
  domainId: idSchema,
  domain: z.string(),
  evaluatedAt: isoDateTime,
  sources: z.object({ dns: evidenceSourceStateSchema, mail_flow: evidenceSourceStateSchema, mail_test: evidenceSourceStateSchema }),
  requirements: z.array(senderRequirementSchema),
  counts: z.object({ met: z.number().int(), unmet: z.number().int(), unknown: z.number().int(), not_measurable: z.number().int() }),
});
export type SenderRequirements = z.infer<typeof senderRequirementsSchema>;

/** The catalogue: what each requirement is, who asks it, and where it is written down. */
export const SENDER_REQUIREMENTS: Record<SenderRequirementId, { title: string; description: string; providers: MailboxProvider[]; links: Array<{ label: string; url: string }> }> = {
  spf: {
    title: 'SPF',
    description: 'Mail passes SPF for the envelope sender domain: the sending addresses are in its SPF record.',
    providers: ['gmail', 'yahoo', 'microsoft'],
    links: [{ label: 'Gmail sender guidelines', url: 'https://support.google.com/a/answer/81126' }],
  },
  dkim: {
    title: 'DKIM',
    description: 'Mail carries a valid DKIM signature whose key is published in DNS.',
    providers: ['gmail', 'yahoo', 'microsoft'],
    links: [{ label: 'Gmail sender guidelines', url: 'https://support.google.com/a/answer/81126' }],
  },
  dmarc: {
    title: 'DMARC record',
    description: 'The domain publishes a DMARC record, p=none at least.',
    providers: ['gmail', 'yahoo', 'microsoft'],
    links: [{ label: 'Yahoo sender best practices', url: 'https://senders.yahooinc.com/best-practices/' }],
  },
  alignment: {
    title: 'DMARC alignment',
    description: 'The From domain matches the SPF or the DKIM domain, so mail passes DMARC.',
    providers: ['gmail', 'yahoo', 'microsoft'],
    links: [{ label: 'Microsoft requirements for high-volume senders', url: 'https://techcommunity.microsoft.com/blog/microsoftdefenderforoffice365blog/strengthening-email-ecosystem-outlook%E2%80%99s-new-requirements-for-high%E2%80%90volume-senders/4399730' }],
  },
  reverse_dns: {
    title: 'Reverse DNS',
    description: 'Every sending address has a PTR name that resolves back to it (forward-confirmed reverse DNS).',
    providers: ['gmail', 'yahoo'],
    links: [{ label: 'Gmail sender guidelines', url: 'https://support.google.com/a/answer/81126' }],
  },
  tls: {
    title: 'TLS',
    description: 'Mail is sent over an encrypted (TLS) connection.',
    providers: ['gmail'],
    links: [{ label: 'Gmail sender guidelines', url: 'https://support.google.com/a/answer/81126' }],
  },
  one_click_unsubscribe: {
    title: 'One-click unsubscribe',
    description: 'Marketing and subscribed mail has List-Unsubscribe with an https address and List-Unsubscribe-Post: List-Unsubscribe=One-Click (RFC 8058); transactional mail is exempt.',
    providers: ['gmail', 'yahoo'],
    links: [{ label: 'RFC 8058', url: 'https://www.rfc-editor.org/rfc/rfc8058' }],
  },
  message_format: {
    title: 'Message format',
    description: 'Messages follow RFC 5322: one From, a Date and a Message-ID.',
    providers: ['gmail'],
    links: [{ label: 'RFC 5322', url: 'https://www.rfc-editor.org/rfc/rfc5322' }],
  },
  complaint_rate: {
    title: 'Spam complaint rate',
    description: 'Under 0.3% of delivered mail reported as spam (Gmail and Yahoo; aim under 0.1%). Only the mailbox providers see it.',
    providers: ['gmail', 'yahoo', 'microsoft'],
    links: [
      { label: 'Google Postmaster Tools', url: 'https://postmaster.google.com/' },
      { label: 'Yahoo Sender Hub', url: 'https://senders.yahooinc.com/' },
      { label: 'Microsoft SNDS', url: 'https://sendersupport.olc.protection.outlook.com/snds/' },
    ],
  },
};

/** Requirements whose status went from met to unmet between two verdicts: what the alert names. */
export function requirementsTurnedUnmet(previous: Pick<SenderRequirements, 'requirements'> | null, next: Pick<SenderRequirements, 'requirements'>): SenderRequirementId[] {
  if (!previous) return [];
  const before = new Map(previous.requirements.map((r) => [r.id, r.status]));
  return next.requirements.filter((r) => r.status === 'unmet' && before.get(r.id) === 'met').map((r) => r.id);
}
