import type { Finding } from '@sendwell/contracts';
import { describeRefused } from '../outbound-targets.js';
import type { DaneHost } from './host.js';
import { DANE_EE, DANE_TA, eeRecordFor, matchChain, presentation, recordProblem, usageName } from './tlsa.js';

/** How one MX host with TLSA records came out. */
export type HostOutcome =
  /** No TLSA records (or the lookup failed): not probed. */
  | 'none'
  | 'lookup-failed'
  /** A usable record matched the presented chain. */
  | 'matched'
  /** Authentication would fail: no match, no STARTTLS, failed handshake, DANE-TA name or dates. */
  | 'failed'
  /** Every record is unusable: senders insist on TLS without authenticating (RFC 7672 §2.2). */
  | 'unusable'
  /** Not reached (blocked port, no greeting, refused address …): nothing to say about the match. */
  | 'unknown'
  /** The records are in a zone without DNSSEC: senders ignore them (RFC 7672 §2.2), whatever they match. */
  | 'unsigned';

export interface JudgedHost {
  host: DaneHost;
  outcome: HostOutcome;
  matched: boolean | null;
  matchedRecord: string | null;
  presentedRecord: string | null;
  error: string | null;
  findings: Finding[];
}

function hostFinding(host: DaneHost, code: string, severity: Finding['severity'], message: string, rfc: string, recommendation?: string): Finding {
  return { code, severity, message: `${host.exchange}: ${message}`, rfc, ...(recommendation ? { recommendation } : {}), host: host.exchange };
}

/**
 * The records' own faults and what the probe showed, then what DNSSEC says of the records: unsigned,
 * senders ignore them, so what they match only tells what signing the zone would bring; bogus,
 * validating senders do not deliver to the host at all. An undecided validation (unknown) leaves the
 * judgement as it is; the verdict says once that it could not be checked.
 */
export function judgeHost(host: DaneHost, now: number): JudgedHost {
  const judged = judgeRecords(host, now);
  if (host.dnssec?.state === 'insecure') return unsigned(judged);
  if (host.dnssec?.state === 'bogus') {
    judged.outcome = 'failed';
    judged.error = 'the TLSA records fail DNSSEC validation (bogus)';
    judged.findings.unshift(bogusFinding(host));
  }
  return judged;
}

/** The records' own faults, then what the probe showed. */
function judgeRecords(host: DaneHost, now: number): JudgedHost {
  const judged: JudgedHost = { host, outcome: 'none', matched: null, matchedRecord: null, presentedRecord: null, error: host.lookupError ? `TLSA lookup ${host.lookupError}` : null, findings: [] };
  if (host.lookupError !== null) {
    judged.outcome = 'lookup-failed';
    judged.findings.push(
      hostFinding(
        host,
        'DANE_LOOKUP_FAILED',
        'info',
        `the TLSA lookup at ${host.tlsaName} ${host.lookupError}, so DANE was not checked. A sender that validates DNSSEC defers mail to a host whose TLSA records it cannot look up in a signed zone; a validating resolver also answers SERVFAIL for badly signed records.`,
        'RFC 7672 §2.1.1',
        `Check that the name servers of ${host.exchange} answer TLSA queries (some answer nothing, or SERVFAIL, for record types they do not know).`,
      ),
    );
    return judged;
  }
  if (host.records.length === 0) return judged;

  judged.findings.push(...recordFindings(host));
  const usable = host.records.filter((record) => (record.usage === DANE_TA || record.usage === DANE_EE) && recordProblem(record) === null);
  const probe = host.probe;
  const leaf = host.chain[0];
  if (leaf) judged.presentedRecord = eeRecordFor(leaf);
  if (!probe || probe.ip === null || !probe.greeted || probe.errorStage === 'ehlo') {
    judged.outcome = 'unknown';
    judged.error = probe ? unreachedReason(probe) : null;
    judged.findings.push(unreachedFinding(host));
    return judged;
  }
  if (!probe.starttls) {
    judged.outcome = 'failed';
    judged.error = 'STARTTLS not offered';
    judged.findings.push(
      hostFinding(
        host,
        'DANE_STARTTLS_MISSING',
        'error',
        'the host publishes TLSA records but does not offer STARTTLS. DANE senders must use TLS with it, so they do not deliver mail to it.',
        'RFC 7672 §2.2',
        `Enable STARTTLS on ${host.exchange} with the certificate the TLSA records name, or remove the TLSA records at ${host.tlsaName}.`,
      ),
    );
    return judged;
  }
  if (probe.errorStage === 'starttls' || probe.errorStage === 'tls' || !leaf) {
    judged.outcome = 'failed';
    judged.error = probe.error ?? 'no certificate after STARTTLS';
    judged.findings.push(
      hostFinding(
        host,
        'DANE_TLS_FAILED',
        'error',
        `the host publishes TLSA records and offers STARTTLS, but ${probe.error ?? 'presented no certificate'}. DANE senders must authenticate it over TLS, so they do not deliver mail to it.`,
        'RFC 7672 §2.2',
        'Fix the TLS configuration of the mail server: a certificate and key that the TLSA records name, TLS 1.2 and 1.3 enabled.',
      ),
    );
    return judged;
  }
  if (usable.length === 0) {
    judged.outcome = 'unusable';
    judged.findings.push(
      hostFinding(
        host,
        'DANE_NO_USABLE_RECORDS',
        'warning',
        `none of the TLSA records at ${host.tlsaName} is usable for SMTP (DANE-TA(2) or DANE-EE(3), well-formed), so DANE senders insist on TLS but do not authenticate the server.`,
        'RFC 7672 §2.2',
        `Publish a DANE-EE record for the key the server presents${judged.presentedRecord ? ` (${judged.presentedRecord})` : ''} at ${host.tlsaName}.`,
      ),
    );
    return judged;
  }
  matchFindings(judged, usable, now);
  return judged;
}

/** Matches the usable records against the chain; a DANE-TA match also needs the leaf's name and dates (RFC 7672 §3.2, §3.1.2). */
function matchFindings(judged: JudgedHost, usable: DaneHost['records'], now: number): void {
  const host = judged.host;
  const cert = host.probe?.certificate ?? null;
  const match = matchChain(usable, host.chain);
  if (match && match.record.usage === DANE_TA) {
    const record = presentation(match.record);
    if (cert && !cert.nameMatches) {
      judged.outcome = 'failed';
      judged.matched = false;
      judged.error = 'certificate does not name the MX host';
      const names = cert.altNames.length > 0 ? cert.altNames.join(', ') : (cert.subject ?? 'another name');
      judged.findings.push(
        hostFinding(
          host,
          'DANE_TA_NAME_MISMATCH',
          'error',
          `the chain leads to the trust anchor of the DANE-TA record ${record}, but the certificate is issued for ${names}, not for ${host.exchange}. With DANE-TA(2) senders check the name, so they do not deliver mail to it.`,
          'RFC 7672 §3.2',
          `Issue the certificate for ${host.exchange} (in its subjectAltName), or publish a DANE-EE record for its key${judged.presentedRecord ? ` (${judged.presentedRecord})` : ''}, which is matched without a name check.`,
        ),
      );
      return;
    }
    const expired = cert?.validTo != null && Date.parse(cert.validTo) <= now;
    const early = cert?.validFrom != null && Date.parse(cert.validFrom) > now;
    if (expired || early) {
      judged.outcome = 'failed';
      judged.matched = false;
      judged.error = expired ? 'certificate expired' : 'certificate not yet valid';
      const when = expired ? `expired on ${cert?.validTo?.slice(0, 10)}` : `is not valid until ${cert?.validFrom?.slice(0, 10)}`;
      judged.findings.push(
        hostFinding(
          host,
          'DANE_TA_CERT_EXPIRED',
          'error',
          `the chain leads to the trust anchor of the DANE-TA record ${record}, but the certificate ${when}. With DANE-TA(2) senders check the dates, so they do not deliver mail to it.`,
          'RFC 7672 §3.1.2',
          'Renew the certificate (and automate renewal); a DANE-EE record is matched without a date check.',
        ),
      );
      return;
    }
  }
  if (match) {
    judged.outcome = 'matched';
    judged.matched = true;
    judged.matchedRecord = presentation(match.record);
    return;
  }
  judged.outcome = 'failed';
  judged.matched = false;
  judged.error = 'no TLSA record matches the presented certificates';
  const onlyTa = usable.every((record) => record.usage === DANE_TA);
  const hasTa = usable.some((record) => record.usage === DANE_TA);
  judged.findings.push(
    hostFinding(
      host,
      'DANE_MISMATCH',
      'error',
      `${usable.length === 1 ? 'its TLSA record does not match' : `none of its ${usable.length} usable TLSA records matches`} the certificate${host.chain.length === 1 ? '' : 's'} the host presents after STARTTLS${
        judged.presentedRecord ? ` (its key gives ${judged.presentedRecord})` : ''
      }. DANE senders do not deliver mail to it.${hasTa ? ' A DANE-TA(2) record matches only a CA certificate the server sends in its chain.' : ''}`,
      'RFC 7672 §2.2',
      onlyTa
        ? `Make the server send the certificate of the CA the DANE-TA record names in its chain (RFC 7672 §3.1.2), or publish the record for the CA that issued its certificate.`
        : `Publish a TLSA record for the key the server presents${judged.presentedRecord ? ` (${judged.presentedRecord})` : ''} at ${host.tlsaName}, next to the old one until every server uses the new key (RFC 7671 §8.1).`,
    ),
  );
}

/** DANE_TLSA_INVALID for each malformed record, DANE_PKIX_USAGE once for usages 0 and 1. */
function recordFindings(host: DaneHost): Finding[] {
  const findings: Finding[] = [];
  for (const record of host.records) {
    const problem = recordProblem(record);
    if (!problem) continue;
    findings.push(
      hostFinding(
        host,
        'DANE_TLSA_INVALID',
        'error',
        `the TLSA record "${shorten(presentation(record))}" at ${host.tlsaName} is unusable: ${problem.problem}.`,
        problem.rfc,
        `Fix or remove the record; a DANE-EE record holds the SHA-256 of the server's public key ("3 1 1" and 64 hexadecimal digits).`,
      ),
    );
  }
  const pkix = host.records.filter((record) => (record.usage === 0 || record.usage === 1) && recordProblem(record) === null);
  if (pkix.length > 0) {
    findings.push(
      hostFinding(
        host,
        'DANE_PKIX_USAGE',
        'warning',
        `${pkix.length === 1 ? 'a TLSA record uses' : `${pkix.length} TLSA records use`} ${[...new Set(pkix.map((record) => usageName(record.usage)))].join(' and ')}, which SMTP senders do not use (they have no trusted CA list to check it against) and treat as unusable.`,
        'RFC 7672 §3.1.3',
        'Publish DANE-EE(3) records ("3 1 1", the SHA-256 of the public key) or DANE-TA(2) records instead of PKIX-TA(0) and PKIX-EE(1).',
      ),
    );
  }
  return findings;
}

function unreachedReason(probe: NonNullable<DaneHost['probe']>): string {
  if (probe.ip === null) {
    if (probe.refused.length > 0) return `refused ${probe.refused.map((target) => target.address).join(', ')}`;
    if (probe.dnsError !== null) return probe.dnsError;
    if (probe.noAddress) return 'no A or AAAA record';
  }
  return probe.error ?? 'no answer';
}

/** The host could not be probed: our network, its address records, or a server that refuses the session. */
function unreachedFinding(host: DaneHost): Finding {
  const probe = host.probe;
  let why: string;
  if (!probe) why = 'it was not probed';
  else if (probe.ip === null && probe.refused.length > 0) why = `it points at ${describeRefused(probe.refused)}, which the scanner does not connect to`;
  else if (probe.ip === null && probe.dnsError !== null) why = `its addresses could not be looked up (${probe.dnsError})`;
  else if (probe.ip === null) why = 'it has no A or AAAA record';
  else if (probe.errorStage === 'greeting' && probe.banner !== null) why = `the server refused the session (${probe.error ?? probe.banner})`;
  else if (probe.errorStage === 'ehlo') why = `the server rejected EHLO (${probe.error ?? 'no reason'})`;
  else why = `no SMTP service answered on port ${probe.port} at ${probe.ip} (${probe.error ?? 'no answer'}); many networks block outbound port ${probe.port}, so this may be the scanner's network rather than the domain`;
  return hostFinding(host, 'DANE_HOST_UNREACHABLE', 'info', `it publishes TLSA records, but ${why}, so whether they match its certificate was not checked.`, 'RFC 5321 §3.1');
}

/** TLSA records in an unsigned zone: one warning for the host, in place of the match's findings (which no sender acts on). */
function unsigned(judged: JudgedHost): JudgedHost {
  const host = judged.host;
  const zone = host.dnssec?.zone ?? host.exchange;
  const why = host.dnssec?.detail ? ` (${host.dnssec.detail})` : '';
  let match = '';
  if (judged.outcome === 'matched') match = ' They match the certificate the host presents, so signing the zone puts DANE in effect.';
  else if (judged.outcome === 'failed') match = ` As published they would not authenticate the host (${judged.error ?? 'no match'}): correct them before the zone is signed, or DANE senders will stop delivering to it.`;
  else if (judged.outcome === 'unusable') match = ' None of them is usable for SMTP either (DANE-TA(2) or DANE-EE(3), well-formed).';
  const finding = hostFinding(
    host,
    'DANE_TLSA_UNSIGNED',
    'warning',
    `the TLSA records at ${host.tlsaName} are in ${zone}, which is not DNSSEC-signed${why}. Senders use TLSA records only when they validate, so they ignore these and deliver without DANE.${match}`,
    'RFC 7672 §2.2',
    `Sign ${zone} with DNSSEC and publish its DS record at the parent (for a provider's MX host, its operator does this), or remove the TLSA records at ${host.tlsaName}.`,
  );
  return { ...judged, outcome: 'unsigned', error: 'the TLSA records are not DNSSEC-signed', findings: [finding] };
}

/** TLSA records that fail DNSSEC validation: a validating sender treats the host as unusable (RFC 7672 §2.1.1). */
function bogusFinding(host: DaneHost): Finding {
  const zone = host.dnssec?.zone ?? host.exchange;
  return hostFinding(
    host,
    'DANE_TLSA_BOGUS',
    'error',
    `the TLSA records at ${host.tlsaName} fail DNSSEC validation (bogus)${host.dnssec?.detail ? `: ${host.dnssec.detail}` : ''}. Senders that validate DNSSEC cannot use them and do not deliver mail to this host, whatever certificate it presents.`,
    'RFC 7672 §2.1.1',
    `Fix the DNSSEC signatures of ${zone} (the DNSSEC check names the fault), or remove the TLSA records at ${host.tlsaName}.`,
  );
}

function shorten(text: string): string {
  return text.length > 90 ? `${text.slice(0, 90)}…` : text;
}
