/*
 * The sender requirements' names and plan message, apart from their schemas
 * (entities/sender-requirements.ts builds those on these and re-exports them): the domain page shows
 * them without loading zod.
 */

export const SENDER_REQUIREMENTS_PLAN_MESSAGE = 'Sender requirements are available on paid plans. Please upgrade to see how your domain meets the Gmail, Yahoo and Microsoft requirements.';

export const mailboxProviders = ['gmail', 'yahoo', 'microsoft'] as const;
export const MAILBOX_PROVIDER_NAMES: Record<(typeof mailboxProviders)[number], string> = { gmail: 'Gmail', yahoo: 'Yahoo', microsoft: 'Microsoft (Outlook.com)' };

/** Where a piece of evidence comes from. */
export const evidenceSources = ['dns', 'mail_flow', 'mail_test'] as const;
export const EVIDENCE_SOURCE_LABELS: Record<(typeof evidenceSources)[number], string> = { dns: 'DNS scan', mail_flow: 'Mail flow reports', mail_test: 'Test message' };
