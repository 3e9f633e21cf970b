import type { CheckType, DnssecDetails, Finding } from '@sendwell/contracts';
import { mostSevereRecommendation } from '../recommendation.js';
import type { CheckResult } from '../types.js';
import { displayName, isAtOrBelow } from '../shared/dnssec/canonical.js';
import { algorithmName } from '../shared/dnssec/crypto.js';
import { domainNotFoundFinding, expiringFinding, noteFinding, problemFinding, recordInsecureFinding, tlsaInsecureFinding } from './findings.js';
import { dsPresentation, type DsRecord } from '../shared/dnssec/trust-anchor.js';
import type { ChainLink, DnssecValidator, Problem, RrsetOutcome, ZoneState } from '../shared/dnssec/validator.js';

export type DnssecResult = CheckResult<DnssecDetails>;

const DNSSEC: CheckType = 'dnssec';

export interface DnssecOutcome {
  domain: string;
  trustAnchors: readonly DsRecord[];
  /** The zone holding the domain, from the walk. */
  zone: ZoneState;
  /** The RRsets read in the domain's zone (SOA, MX, TXT, DMARC TXT); only when the zone is secure. */
  records: RrsetOutcome[];
  /** The MX hosts' TLSA RRsets, when they have some. */
  tlsa: RrsetOutcome[];
  /** Lookups of the records that failed; `essential` for the SOA and MX. */
  lookupProblems: Array<{ problem: Problem; essential: boolean }>;
  validator: DnssecValidator;
  now: number;
}

/**
 * The status, graded on the chain to the domain's zone and the RRsets read:
 * - error: anything bogus (a broken chain, a bad, expired or missing signature, a DS that matches no
 *   key), in the domain's zone or in an MX host's TLSA records;
 * - unknown: a lookup on the domain's chain or of its SOA or MX failed, validation reached one of its
 *   bounds (budget.ts), or the domain does not exist;
 * - missing: the zone is provably unsigned (DNSSEC_UNSIGNED, info), the optional hardening not deployed,
 *   as MTA-STS and DANE report theirs;
 * - warning: signed only with algorithms or digests validators do not support (treated as unsigned),
 *   or validated with warnings (signatures close to expiry, SHA-1 DS, RSA/SHA-1 keys);
 * - valid: the chain from the trust anchor and every RRset read validate, nothing to warn about.
 */
export function dnssecVerdict(outcome: DnssecOutcome): DnssecResult {
  const { domain, zone, validator, now } = outcome;
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const add = (finding: Finding | null, key = `${finding?.code} ${finding?.message}`) => {
    if (!finding || seen.has(key)) return;
    seen.add(key);
    findings.push(finding);
  };

  const missing = [...validator.missingNames].some((name) => isAtOrBelow(domain, name));
  if (zone.state === 'bogus' || zone.state === 'insecure' || zone.state === 'indeterminate') {
    add(problemFinding(zone.problem, zone.problem.code === 'DNSSEC_UNSIGNED' ? domain : undefined));
  }
  for (const record of outcome.records) {
    if (record.problem && record.state === 'bogus') add(problemFinding(record.problem));
    if (record.state === 'insecure') add(recordInsecureFinding(record.name, record.type, record.zone ?? record.name));
  }
  for (const record of outcome.tlsa) {
    if (record.state === 'bogus' && record.problem) add(problemFinding(record.problem));
    if (record.state === 'insecure' && record.type === 'TLSA') add(tlsaInsecureFinding(record.name, record.zone ?? record.name));
  }
  for (const { problem } of outcome.lookupProblems) add(problemFinding(problem));
  if (zone.state === 'secure') {
    for (const note of validator.notes) if (isAtOrBelow(domain, note.zone === '.' ? '' : note.zone)) add(noteFinding(note));
  }
  const signatures = [...validator.signatures, ...[...outcome.records, ...outcome.tlsa].flatMap((record) => (record.signature ? [record.signature] : []))];
  add(expiringFinding(signatures, now));
  if (missing && zone.state !== 'bogus') add(domainNotFoundFinding(domain, displayName(zone.zone)));

  const chain = [...validator.chain.values()].filter((link) => isAtOrBelow(domain, link.zone));
  const details: DnssecDetails & { findings: Finding[] } = {
    state: overallState(outcome),
    zone: displayName(zone.zone),
    trustAnchor: outcome.trustAnchors.map(dsPresentation),
    chain: chain.map(chainDetails),
    signedRecords: [...outcome.records, ...outcome.tlsa].map((record) => ({
      name: record.name,
      type: record.type,
      state: record.state,
      validated: record.state === 'secure',
      algorithm: record.signature?.algorithm ?? null,
      expiresAt: record.signature ? new Date(record.signature.expirationMs).toISOString() : null,
      error: record.state === 'bogus' || record.state === 'indeterminate' ? (record.problem?.detail ?? null) : null,
    })),
    findings,
  };

  const error = findings.find((finding) => finding.severity === 'error');
  if (error) return result('error', 'bogus', error.message, mostSevereRecommendation(findings), details);
  // A bound of the validator reached (budget.ts): nothing is known, whichever RRset it was.
  const limited = findings.find((finding) => finding.code === 'DNSSEC_VALIDATION_LIMIT');
  if (limited) return result('unknown', null, limited.message, limited.recommendation ?? null, details);
  const essentialFailed = outcome.lookupProblems.some((entry) => entry.essential);
  if (zone.state === 'indeterminate' || essentialFailed) {
    const reason = zone.state === 'indeterminate' ? zone.problem.detail : (outcome.lookupProblems.find((entry) => entry.essential)?.problem.detail ?? '');
    return result('unknown', null, `DNSSEC could not be checked for ${domain}: ${reason}.`, null, details);
  }
  if (missing) return result('unknown', null, (findings.find((f) => f.code === 'DNSSEC_DOMAIN_NOT_FOUND') as Finding).message, null, details);
  if (zone.state === 'insecure') {
    const top = findings.find((finding) => finding.code === zone.problem.code) as Finding;
    if (zone.problem.code === 'DNSSEC_UNSIGNED') return result('missing', 'unsigned', top.message, top.recommendation ?? null, details);
    return result('warning', 'insecure', top.message, top.recommendation ?? null, details);
  }
  const keys = chain.at(-1)?.keyAlgorithms ?? [];
  const value = `signed (${keys.map(algorithmName).join(', ') || 'validated'})`;
  const warning = findings.find((finding) => finding.severity === 'warning');
  if (warning) return result('warning', value, warning.message, mostSevereRecommendation(findings), details);
  const read = outcome.records.map((record) => `${record.type}${record.name === domain ? '' : ` at ${record.name}`}`);
  const tlsa = outcome.tlsa.filter((record) => record.type === 'TLSA' && record.state === 'secure').length;
  return result(
    'valid',
    value,
    `The DNSSEC chain of trust from the root to ${displayName(zone.zone)} validates, and so do the signatures over ${read.length > 0 ? read.join(', ') : 'its records'}${tlsa > 0 ? ` and the TLSA records of ${tlsa} MX host${tlsa === 1 ? '' : 's'}` : ''}.`,
    null,
    details,
  );
}

function overallState(outcome: DnssecOutcome): NonNullable<DnssecDetails['state']> {
  if (outcome.zone.state !== 'secure') return outcome.zone.state;
  if ([...outcome.records, ...outcome.tlsa].some((record) => record.state === 'bogus')) return 'bogus';
  return 'secure';
}

function chainDetails(link: ChainLink): NonNullable<DnssecDetails['chain']>[number] {
  return {
    zone: displayName(link.zone),
    state: link.state,
    dsDigestTypes: link.dsDigestTypes,
    keyAlgorithms: link.keyAlgorithms,
    keyTags: link.keyTags,
    validated: link.state === 'secure',
    expiresAt: link.expiresAt === null ? null : new Date(link.expiresAt).toISOString(),
    error: link.error,
  };
}

function result(
  status: DnssecResult['status'],
  value: string | null,
  message: string,
  recommendation: string | null,
  details: DnssecDetails & { findings: Finding[] },
): DnssecResult {
  return { type: DNSSEC, status, value, message, recommendation, details };
}
