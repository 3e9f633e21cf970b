import type { Finding } from '@sendwell/contracts';

/**
 * Selectors probed on every domain besides the ones the user saved. DKIM has no discovery (the
 * selector travels only in each signature's s= tag, RFC 6376 §3.1), so a scan can only guess: these
 * are the defaults of the mailbox providers and ESPs most domains use. Each costs one TXT query per
 * scan, so the list stays short and every entry names who uses it.
 */
export const COMMON_DKIM_SELECTORS: readonly string[] = [
  // Generic defaults of signing software (OpenDKIM, Postfix/rspamd set-ups, cPanel, Plesk).
  'default',
  'dkim',
  'mail',
  'email',
  'smtp',
  'dkim1024',
  // Google Workspace ('google'), Gmail-era rotation keys.
  'google',
  '20161025',
  '20230601',
  // Microsoft 365.
  'selector1',
  'selector2',
  // Mailchimp (k1-k3), Mailchimp Transactional / Mandrill.
  'k1',
  'k2',
  'k3',
  'mandrill',
  'mte1',
  'mte2',
  // SendGrid and other s-numbered rotations.
  's1',
  's2',
  // Mailgun.
  'mailo',
  // Amazon SES (legacy TXT keys).
  'amazonses',
  // Apple iCloud custom domains.
  'sig1',
  // Zendesk.
  'zendesk1',
  'zendesk2',
  // Proton Mail.
  'protonmail',
  'protonmail2',
  'protonmail3',
  // Fastmail.
  'fm1',
  'fm2',
  'fm3',
  // Campaign Monitor, Mailjet, Postmark, Constant Contact, HubSpot, Klaviyo, MailerLite, Brevo.
  'cm',
  'mailjet',
  'pm',
  'ctct1',
  'ctct2',
  'hs1',
  'hs2',
  'kl',
  'litesrv',
  'brevo1',
  // Zoho Mail.
  'zoho',
  // Yahoo-hosted domains.
  's1024',
  's2048',
  // MXroute, Everlytic.
  'mxvault',
  'everlytickey1',
  'everlytickey2',
];

/** A selector as DNS can carry it: dot-separated labels of letters, digits, '-' and '_' (RFC 6376 §3.1). */
const SELECTOR = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** Selectors are DNS labels, so case-insensitive; saved values may carry whitespace or "._domainkey". */
export function normaliseSelector(raw: string): string | null {
  let selector = raw.trim().toLowerCase();
  if (selector.endsWith('.')) selector = selector.slice(0, -1);
  const suffix = selector.indexOf('._domainkey');
  if (suffix >= 0) selector = selector.slice(0, suffix);
  return SELECTOR.test(selector) ? selector : null;
}

/** The selectors a scan asks about: the user's saved ones (valid, once each) first, then the common ones. */
export interface SelectorPlan {
  userSelectors: string[];
  commonSelectors: string[];
  /** Every selector asked about, the user's first. */
  selectorsChecked: string[];
  /** Saved selectors that are not DNS names, so not asked about. */
  findings: Finding[];
}

export function planSelectors(saved: readonly string[]): SelectorPlan {
  const findings: Finding[] = [];
  const userSelectors: string[] = [];
  for (const raw of saved) {
    const selector = normaliseSelector(raw);
    if (selector === null) {
      findings.push({
        code: 'DKIM_SELECTOR_INVALID',
        severity: 'warning',
        message: `The saved selector "${raw}" is not a valid DNS name, so it was not checked.`,
        rfc: 'RFC 6376 §3.1',
        recommendation: 'Save the selector exactly as it appears in the s= tag of your DKIM-Signature header, e.g. "s1".',
      });
    } else if (!userSelectors.includes(selector)) {
      userSelectors.push(selector);
    }
  }
  const commonSelectors = COMMON_DKIM_SELECTORS.filter((selector) => !userSelectors.includes(selector));
  return { userSelectors, commonSelectors, selectorsChecked: [...userSelectors, ...commonSelectors], findings };
}
