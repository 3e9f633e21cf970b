import type { Finding } from '@sendwell/contracts';
import { MAX_DNS_LOOKUPS, MAX_VOID_LOOKUPS } from './evaluate.js';
import type { SpfTreeNode, SpfWalk } from './tree.js';

/** Lookups from here up to the limit get a warning: one more include from a provider can tip it over. */
const NEAR_LIMIT = 8;
/** RFC 7208 §3.4: keep the answer within 512 bytes of UDP; the record text itself around 450 bytes. */
const LONG_RECORD_BYTES = 450;

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/**
 * Every finding of the scan, most severe first: those of the walk (record by record), then those of
 * the tree as a whole — how evaluation ends, the lookup counts, the record's size, DNS failures.
 */
export function spfFindings(domain: string, walk: SpfWalk, recordLength: number): Finding[] {
  const findings = [
    ...walk.findings,
    ...endingFindings(domain, walk),
    ...lookupFindings(walk.lookupCount),
    ...voidLookupFindings(walk),
    ...recordLengthFindings(recordLength),
    ...temperrorFindings(domain, walk.temperror),
  ];
  return findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
}

/** How the record ends evaluation: its `all` (after redirects), judged only when the root record parsed. */
function endingFindings(domain: string, walk: SpfWalk): Finding[] {
  const rootParsed = walk.root.errorCode === null || walk.root.errorCode === 'SPF_DNS_TEMPERROR';
  if (!rootParsed) return [];
  switch (walk.finalAll) {
    case '+':
      return [
        {
          code: 'SPF_PASS_ALL',
          severity: 'error',
          message: `The SPF record ends in "+all", so it authorises every server on the Internet to send as ${domain}.`,
          rfc: 'RFC 7208 §5.1',
          recommendation: 'End the record with "~all" or "-all" after listing your real senders.',
        },
      ];
    case '?':
      return [
        {
          code: 'SPF_NEUTRAL_ALL',
          severity: 'warning',
          message: 'The SPF record ends in "?all", which makes no assertion about other servers, so spoofed mail is not flagged.',
          rfc: 'RFC 7208 §5.1, §8.2',
          recommendation: 'End the record with "~all" (or "-all") once every sender is listed.',
        },
      ];
    case '~':
      // Decision: info, not a warning. With DMARC enforcing, receivers act on DMARC rather than the SPF
      // softfail, and "~all" keeps forwarded mail from being rejected at SPF before DKIM can save it
      // (M3AAWG's and most providers' advice); "-all" is only stricter without DMARC.
      return [
        {
          code: 'SPF_SOFTFAIL_ALL',
          severity: 'info',
          message: 'The SPF record ends in "~all" (softfail): unlisted servers are flagged, not rejected; with an enforcing DMARC policy that is the usual choice.',
          rfc: 'RFC 7208 §8.5',
          recommendation: 'Keep "~all" with DMARC p=quarantine or p=reject; without DMARC consider "-all".',
        },
      ];
    case '-':
      return [];
    case null:
      return noAllFindings(walk.root);
  }
}

/** No `all` ends evaluation: a finding on the record that should have one, unless that record is broken anyway. */
function noAllFindings(root: SpfTreeNode): Finding[] {
  const last = lastOfRedirectChain(root);
  if (last.errorCode !== null) return [];
  return [
    {
      code: 'SPF_NO_ALL',
      severity: 'warning',
      message:
        last === root
          ? 'The SPF record has no "all" mechanism and no redirect, so servers not listed get "neutral" and spoofed mail is not flagged.'
          : `The SPF record redirects to ${last.domain}, whose record has no "all" mechanism, so servers not listed get "neutral".`,
      rfc: 'RFC 7208 §4.7',
      recommendation: `End the record${last === root ? '' : ` of ${last.domain}`} with "~all" or "-all".`,
      domain: last.domain,
    },
  ];
}

/** The record that ends evaluation: the root, or the last one of its redirect chain. */
function lastOfRedirectChain(root: SpfTreeNode): SpfTreeNode {
  let last = root;
  for (let next = last.children.find((c) => c.via === 'redirect'); next; next = next.children.find((c) => c.via === 'redirect')) last = next;
  return last;
}

function lookupFindings(lookupCount: number): Finding[] {
  if (lookupCount > MAX_DNS_LOOKUPS) {
    return [
      {
        code: 'SPF_TOO_MANY_LOOKUPS',
        severity: 'error',
        message: `Evaluating the SPF record takes ${lookupCount} DNS lookups; above ${MAX_DNS_LOOKUPS} receivers return a permanent error and SPF fails.`,
        rfc: 'RFC 7208 §4.6.4',
        recommendation: 'Remove unused includes, replace "a", "mx" and "ptr" with ip4:/ip6: networks, or flatten includes you control.',
        lookupCount,
      },
    ];
  }
  if (lookupCount >= NEAR_LIMIT) {
    return [
      {
        code: 'SPF_LOOKUPS_NEAR_LIMIT',
        severity: 'warning',
        message: `Evaluating the SPF record takes ${lookupCount} of the ${MAX_DNS_LOOKUPS} DNS lookups allowed; one more include could break SPF.`,
        rfc: 'RFC 7208 §4.6.4',
        recommendation: 'Remove unused includes or replace "a"/"mx" terms with ip4:/ip6: networks to leave headroom.',
        lookupCount,
      },
    ];
  }
  return [];
}

function voidLookupFindings({ voidLookups }: SpfWalk): Finding[] {
  const names = voidLookups.map((v) => v.name).join(', ');
  if (voidLookups.length > MAX_VOID_LOOKUPS) {
    return [
      {
        code: 'SPF_TOO_MANY_VOID_LOOKUPS',
        severity: 'error',
        message: `${voidLookups.length} lookups in the SPF record find nothing (${names}); above ${MAX_VOID_LOOKUPS} receivers return a permanent error.`,
        rfc: 'RFC 7208 §4.6.4',
        recommendation: 'Remove the terms that point to names with no records.',
        voidLookups,
      },
    ];
  }
  if (voidLookups.length > 0) {
    return [
      {
        code: 'SPF_VOID_LOOKUP',
        severity: 'info',
        message: `${voidLookups.length} lookup(s) in the SPF record find nothing (${names}); more than ${MAX_VOID_LOOKUPS} would be a permanent error.`,
        rfc: 'RFC 7208 §4.6.4',
        recommendation: 'Remove terms pointing to names that have no records.',
        voidLookups,
      },
    ];
  }
  return [];
}

function recordLengthFindings(recordLength: number): Finding[] {
  if (recordLength <= LONG_RECORD_BYTES) return [];
  return [
    {
      code: 'SPF_RECORD_TOO_LONG',
      severity: 'info',
      message: `The SPF record is ${recordLength} bytes; past about ${LONG_RECORD_BYTES} the DNS answer may not fit one UDP packet and needs TCP.`,
      rfc: 'RFC 7208 §3.4',
      recommendation: 'Shorten the record, for example by moving networks into an include.',
    },
  ];
}

function temperrorFindings(domain: string, temperror: boolean): Finding[] {
  if (!temperror) return [];
  return [
    {
      code: 'SPF_DNS_TEMPERROR',
      severity: 'warning',
      message: `Part of the SPF record tree of ${domain} could not be resolved (DNS timeout or server failure), so the result cannot be known.`,
      rfc: 'RFC 7208 §4.4',
      recommendation: 'Check that the name servers of every included domain answer; receivers defer mail on temporary errors.',
    },
  ];
}
