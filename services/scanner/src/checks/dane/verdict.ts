import type { CheckType, DaneDetails, Finding } from '@sendwell/contracts';
import { mostSevereRecommendation } from '../recommendation.js';
import { MAX_MX_HOSTS, type MxPlan } from '../shared/mx-probe/mx-hosts.js';
import type { CheckResult } from '../types.js';
import type { JudgedHost } from './findings.js';

type DaneResult = CheckResult<DaneDetails>;

const DANE: CheckType = 'dane';

/** The MX lookup failed, or there is no MX host (none, or a null MX): unknown or missing. */
export function noHostVerdict(domain: string, plan: MxPlan): DaneResult {
  if (plan.error !== null) {
    return {
      type: DANE,
      status: 'unknown',
      value: null,
      message: `The MX records of ${domain} could not be looked up, so their TLSA records were not checked.`,
      recommendation: null,
      details: { hosts: [], error: plan.error, findings: [] },
    };
  }
  const finding: Finding = {
    code: 'DANE_NO_MX',
    severity: 'info',
    message: plan.nullMx
      ? `${domain} publishes a null MX: it accepts no mail, so there is no mail server for DANE to protect.`
      : `${domain} has no MX record, so there is no mail server whose TLSA records could be checked.`,
    rfc: 'RFC 7672 §2.2.1',
  };
  return { type: DANE, status: 'missing', value: null, message: finding.message, recommendation: null, details: { hosts: [], findings: [finding] } };
}

/**
 * Graded on the worst finding. Without TLSA records on any host: missing (or unknown when a lookup
 * failed). With them and nothing wrong: valid when at least one host matched, unknown when none
 * could be probed (never blamed on the domain).
 */
export function daneVerdict(domain: string, plan: MxPlan, judged: readonly JudgedHost[]): DaneResult {
  const withTlsa = judged.filter((entry) => entry.host.records.length > 0);
  const findings = judged.flatMap((entry) => entry.findings);
  if (withTlsa.length > 0) {
    for (const entry of judged) {
      if (entry.outcome !== 'none') continue;
      findings.push({
        code: 'DANE_PARTIAL',
        severity: 'warning',
        message: `${entry.host.exchange}: the host publishes no TLSA records at ${entry.host.tlsaName}, while other MX hosts of ${domain} do. DANE senders deliver to it without authenticating it, so an attacker on that path can intercept mail.`,
        rfc: 'RFC 7672 §2.2.1',
        recommendation: `Publish TLSA records for every MX host, ${entry.host.exchange} included (or remove it from the MX records).`,
        host: entry.host.exchange,
      });
    }
  }
  if (plan.skipped > 0) {
    findings.push({
      code: 'DANE_HOSTS_LIMITED',
      severity: 'info',
      message: `${domain} has ${plan.skipped + MAX_MX_HOSTS} MX hosts; the ${MAX_MX_HOSTS} with the lowest preference were checked.`,
      rfc: 'RFC 5321 §5.1',
    });
  }
  const anyLookupFailed = judged.some((entry) => entry.outcome === 'lookup-failed');
  const unverified = withTlsa.filter((entry) => entry.host.dnssec?.state === 'unknown');
  if (unverified.length > 0) findings.push(unverifiedFinding(unverified));
  const details: DaneDetails & { findings: Finding[] } = { hosts: judged.map(hostDetails), findings };

  if (withTlsa.length === 0) {
    if (anyLookupFailed) {
      return {
        type: DANE,
        status: 'unknown',
        value: null,
        message: `The TLSA records of the MX hosts of ${domain} could not be looked up, so DANE was not checked.`,
        recommendation: null,
        details,
      };
    }
    const missing = missingFinding(domain);
    details.findings.unshift(missing);
    return { type: DANE, status: 'missing', value: null, message: missing.message, recommendation: missing.recommendation ?? null, details };
  }

  const matched = withTlsa.filter((entry) => entry.outcome === 'matched');
  const value = `TLSA on ${withTlsa.length} of ${judged.length} MX host${judged.length === 1 ? '' : 's'}${matched.length > 0 ? `, ${matched.length} matched` : ''}`;
  const top = findings.find((f) => f.severity === 'error') ?? findings.find((f) => f.severity === 'warning');
  if (top) {
    return {
      type: DANE,
      status: top.severity === 'error' ? 'error' : 'warning',
      value,
      message: top.message,
      recommendation: top.recommendation ?? mostSevereRecommendation(findings),
      details,
    };
  }
  if (matched.length === 0) {
    const port = withTlsa[0]?.host.probe?.port ?? 25;
    return {
      type: DANE,
      status: 'unknown',
      value,
      message: anyLookupFailed
        ? `The TLSA records of some MX hosts of ${domain} could not be looked up, and no host with TLSA records could be probed.`
        : `No MX host of ${domain} with TLSA records could be probed on port ${port}, so whether the records match was not checked; many networks block outbound port ${port}.`,
      recommendation: null,
      details,
    };
  }
  return { type: DANE, status: 'valid', value, message: validMessage(matched, withTlsa.length), recommendation: null, details };
}

function validMessage(matched: readonly JudgedHost[], withTlsa: number): string {
  const first = matched[0];
  if (matched.length === 1 && withTlsa === 1 && first) {
    return `The TLSA record ${shortRecord(first.matchedRecord)} of ${first.host.exchange} matches the certificate it presents after STARTTLS.`;
  }
  const unchecked = withTlsa - matched.length;
  const all = unchecked === 0 ? `all ${matched.length} MX hosts` : `${matched.length} of the ${withTlsa} MX hosts with TLSA records (${unchecked} could not be probed)`;
  return `The TLSA records of ${all} match the certificates they present after STARTTLS.`;
}

/** "3 1 1 1a2b3c4d…". */
function shortRecord(record: string | null): string {
  if (record === null) return '';
  return record.length > 24 ? `${record.slice(0, 22)}…` : record;
}

function missingFinding(domain: string): Finding {
  return {
    code: 'DANE_MISSING',
    severity: 'info',
    message: `No MX host of ${domain} publishes TLSA records (at _25._tcp.<MX host>), so senders that support DANE use TLS without authenticating the server. DANE needs the MX hosts' zones signed with DNSSEC; it is optional hardening, like MTA-STS.`,
    rfc: 'RFC 7672 §2.2',
    recommendation:
      'Optional: once the zone of an MX host is signed with DNSSEC, publish a TLSA record "3 1 1 <SHA-256 of the server\'s public key>" at _25._tcp.<MX host> for each MX host (a hosted mail provider does this for its own hosts).',
  };
}

/**
 * The validator could not decide (a lookup timed out, the trust anchor failed): a fault on the
 * scanner's side, not the domain's, so the records were judged as given, and the result says so.
 */
function unverifiedFinding(entries: readonly JudgedHost[]): Finding {
  const reasons = entries.map((entry) => `${entry.host.exchange}: ${entry.host.dnssec?.detail ?? 'no verdict'}`).join('; ');
  return {
    code: 'DANE_DNSSEC_NOT_VERIFIED',
    severity: 'info',
    message: `Whether the TLSA answers are DNSSEC-signed and validate could not be checked (${reasons}): senders use TLSA records only from a signed zone, and ignore them otherwise.`,
    rfc: 'RFC 7672 §2.1',
  };
}

function hostDetails(entry: JudgedHost): NonNullable<DaneDetails['hosts']>[number] {
  return {
    exchange: entry.host.exchange,
    ip: entry.host.probe?.ip ?? null,
    tlsa: entry.host.records.map((record) => ({ usage: record.usage, selector: record.selector, matchingType: record.matchingType, data: record.data })),
    matched: entry.matched,
    matchedRecord: entry.matchedRecord,
    presentedRecord: entry.presentedRecord,
    dnssec: entry.host.dnssec?.state ?? null,
    error: entry.error,
  };
}
