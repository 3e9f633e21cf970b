/** The verification tool's categories and reasons, without zod (the reference card shows them). */

/** Result categories of the email address verification tool; anything else is shown as Unknown. */
export const emailCategories = ['send_to', 'risky', 'do_not_send', 'error', 'unknown'] as const;

/**
 * The reasons of the reference card (part 2 §2.15), each a raw `status` and the category it falls in.
 * `error` is the verifier itself failing, not a verdict on the address.
 */
type EmailCategory = (typeof emailCategories)[number];
export const emailVerificationReasons = {
  valid: { label: 'valid', category: 'send_to' },
  catch_all: { label: 'catch-all domain', category: 'risky' },
  mailbox_full: { label: 'mailbox full', category: 'risky' },
  role_based: { label: 'role-based email', category: 'risky' },
  unknown: { label: 'unknown status', category: 'risky' },
  syntax_error: { label: 'syntax error', category: 'do_not_send' },
  typo: { label: 'has typos', category: 'do_not_send' },
  mailbox_not_found: { label: 'mailbox not found', category: 'do_not_send' },
  disposable: { label: 'disposable email', category: 'do_not_send' },
  blocked: { label: 'blocked email', category: 'do_not_send' },
  error: { label: 'verification error', category: 'error' },
} as const satisfies Record<string, { label: string; category: EmailCategory }>;
