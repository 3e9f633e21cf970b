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

/**
 * A selector receivers saw signing the domain's mail (the DMARC aggregate reports' dkim_selector), with
 * the signing domain (d=): the domain itself or one of its subdomains, whose key lives under its own name.
 */
export interface ReportedSelector {
  selector: string;
  domain: string;
}

/** Reported selectors probed per scan: each is one TXT query, and a reporter's data is not the user's word. */
export const MAX_REPORTED_SELECTORS = 20;

/** The selectors a scan asks about: the user's saved ones (valid, once each) first, those seen in reports, then the common ones. */
export interface SelectorPlan {
  userSelectors: string[];
  /** Seen signing mail in the reports (valid, not saved already); asked directly, like the user's. */
  reportSelectors: ReportedSelector[];
  commonSelectors: string[];
  /** Every selector asked about, the user's first; a subdomain's as "selector (subdomain)". */
  selectorsChecked: string[];
  /** Saved selectors that are not DNS names, so not asked about. */
  findings: Finding[];
}

/** How a reported selector appears in `selectorsChecked`: a subdomain's names its signing domain. */
export const reportedSelectorLabel = ({ selector, domain }: ReportedSelector, scanned: string): string =>
  domain === scanned ? selector : `${selector} (${domain})`;

export function planSelectors(saved: readonly string[], reported: readonly ReportedSelector[] = [], domain = ''): SelectorPlan {
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
  const reportSelectors = planReported(reported, domain, userSelectors);
  const ownReported = reportSelectors.filter((r) => r.domain === domain).map((r) => r.selector);
  const commonSelectors = COMMON_DKIM_SELECTORS.filter((selector) => !userSelectors.includes(selector) && !ownReported.includes(selector));
  return {
    userSelectors,
    reportSelectors,
    commonSelectors,
    selectorsChecked: [...userSelectors, ...reportSelectors.map((r) => reportedSelectorLabel(r, domain)), ...commonSelectors],
    findings,
  };
}

/**
 * Reporters write whatever the signature said, so a malformed selector or a domain outside this one is
 * dropped without a finding (the user did not enter it); the repository's order (most messages first) is kept.
 */
function planReported(reported: readonly ReportedSelector[], domain: string, userSelectors: readonly string[]): ReportedSelector[] {
  const planned: ReportedSelector[] = [];
  for (const raw of reported) {
    const selector = normaliseSelector(raw.selector);
    const signer = raw.domain.trim().toLowerCase().replace(/\.$/, '');
    if (selector === null || !(signer === domain || signer.endsWith(`.${domain}`))) continue;
    if (signer === domain && userSelectors.includes(selector)) continue;
    if (planned.some((p) => p.selector === selector && p.domain === signer)) continue;
    planned.push({ selector, domain: signer });
    if (planned.length === MAX_REPORTED_SELECTORS) break;
  }
  return planned;
}
