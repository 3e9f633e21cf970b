import type { CheckType, DomainProfile, Finding } from '@sendwell/contracts';
import type { CheckResult } from '../checks/types.js';
import type { MxAnswer, Resolver } from '../dns/types.js';

/**
 * What a domain is for, judged before its checks run, so a domain that declares it takes no mail is
 * judged as such and not as a broken mail domain:
 * - `null_mx`: its only MX is "." (RFC 7505 §3): it receives no mail, and should send none (§4.2);
 * - `parked`: no MX at all, and an SPF record that authorises nobody (or none): no mail either way;
 * - `mail`: everything else, including a domain whose MX could not be read (we cannot tell).
 */
export function domainProfile(mx: readonly MxAnswer[] | null, spfRecord: string | null): DomainProfile {
  if (mx === null) return 'mail';
  if (mx.length === 1 && mx[0]!.exchange.replace(/\.$/, '') === '') return 'null_mx';
  if (mx.length === 0 && (spfRecord === null || authorisesNobody(spfRecord))) return 'parked';
  return 'mail';
}

/** `v=spf1 -all` and the like: no mechanism but `all`, and no redirect (RFC 7208 §5.1, §6.1). */
function authorisesNobody(spfRecord: string): boolean {
  const terms = spfRecord.trim().split(/\s+/).slice(1);
  return terms.every((term) => /^[-~?]?all$/i.test(term));
}

const isSpf = (txt: string) => /^v=spf1(?:\s|$)/i.test(txt.trim());

/**
 * Reads the MX and TXT the profile rests on. The scan's resolver caches both, so the checks and the
 * DNS snapshot that ask again cost no query.
 */
export async function readDomainProfile(domain: string, resolver: Resolver): Promise<DomainProfile> {
  const [mx, txt] = await Promise.all([resolver.lookup(domain, 'MX').catch(() => null), resolver.lookup(domain, 'TXT').catch(() => null)]);
  const spf = txt?.filter(isSpf) ?? [];
  // Several SPF records are a permerror (RFC 7208 §4.5): not a declaration of anything.
  if (txt !== null && spf.length > 1) return 'mail';
  return domainProfile(mx, spf[0] ?? null);
}

/** Checks about receiving or sending mail, which a domain without mail does not need. */
export const MAIL_ONLY_CHECKS = ['dkim', 'mta_sts', 'tls_rpt', 'smtp', 'reverse_dns', 'dane', 'bimi'] as const satisfies readonly CheckType[];
export type MailOnlyCheck = (typeof MAIL_ONLY_CHECKS)[number];

const PROFILE_WORDS: Record<Exclude<DomainProfile, 'mail'>, { why: string; rfc: string }> = {
  null_mx: { why: 'publishes a null MX: it receives no mail', rfc: 'RFC 7505 §3' },
  parked: { why: 'has no MX and an SPF record that authorises no sender: it sends and receives no mail', rfc: 'RFC 7208 §5.1' },
};

/** The result a mail-only check gets on a domain without mail: nothing to check, full marks. */
export function notApplicable(type: MailOnlyCheck, domain: string, profile: Exclude<DomainProfile, 'mail'>): CheckResult {
  const words = PROFILE_WORDS[profile];
  const message = `Not needed: ${domain} ${words.why}.`;
  return {
    type,
    status: 'success',
    value: 'Not applicable',
    message,
    recommendation: null,
    details: { findings: [{ code: 'NOT_APPLICABLE_NO_MAIL', severity: 'info', message, rfc: words.rfc }] },
  } as CheckResult;
}

/**
 * What a domain without mail should publish so nobody can send in its name (M3AAWG's parked-domain
 * practice): SPF `v=spf1 -all` and DMARC `p=reject`. A weaker record is a warning on those checks.
 */
export function judgeNoMailDomain(spf: CheckResult, dmarc: CheckResult, reportAddress: string | null = null): { spf: CheckResult; dmarc: CheckResult } {
  // Reports still matter without mail: they show who forges the domain.
  const rejectRecord = reportAddress ? `v=DMARC1; p=reject; rua=mailto:${reportAddress}` : 'v=DMARC1; p=reject;';
  const record = typeof spf.details.record === 'string' ? spf.details.record : null;
  const policy = typeof dmarc.details.policy === 'string' ? dmarc.details.policy.toLowerCase() : null;
  const spfFinding: Finding | null =
    record !== null && !/(?:^|\s)-all(?:\s|$)/i.test(record)
      ? {
          code: 'NO_MAIL_SPF_NOT_HARDFAIL',
          severity: 'warning',
          message: `The domain sends no mail, so its SPF record should refuse every sender: "v=spf1 -all" (now "${record}").`,
          rfc: 'RFC 7208 §5.1',
          recommendation: 'Publish "v=spf1 -all".',
        }
      : null;
  const dmarcFinding: Finding | null =
    dmarc.status !== 'missing' && policy !== null && policy !== 'reject'
      ? {
          code: 'NO_MAIL_DMARC_NOT_REJECT',
          severity: 'warning',
          message: `The domain sends no mail, so its DMARC policy should reject whatever claims to come from it (now p=${policy}).`,
          rfc: 'RFC 7489 §6.3',
          recommendation: `Publish "${rejectRecord}".`,
        }
      : null;
  return { spf: withWarning(spf, spfFinding), dmarc: dmarc.status === 'missing' ? withRecommendation(dmarc, rejectRecord) : withWarning(dmarc, dmarcFinding) };
}

/**
 * A missing DMARC record keeps its finding, but the check's advice (p=none, then enforcement once the
 * reports show the mail passing) is for mail domains: one without mail goes straight to p=reject.
 */
function withRecommendation(dmarc: CheckResult, record: string): CheckResult {
  const domain = typeof dmarc.details.orgDomain === 'string' ? dmarc.details.orgDomain : null;
  if (domain === null) return dmarc;
  const recommendation = `Publish a TXT record at _dmarc.${domain}: "${record}".`;
  return {
    ...dmarc,
    recommendation,
    details: { ...dmarc.details, findings: dmarc.details.findings.map((f) => (f.code === 'DMARC_MISSING' ? { ...f, recommendation } : f)) },
  };
}

function withWarning(check: CheckResult, finding: Finding | null): CheckResult {
  if (!finding) return check;
  const passed = check.status === 'valid' || check.status === 'success';
  return {
    ...check,
    status: passed ? 'warning' : check.status,
    recommendation: check.recommendation ?? finding.recommendation ?? null,
    details: { ...check.details, findings: [...check.details.findings, finding] },
  };
}
