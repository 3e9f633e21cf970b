import type { Finding } from '@sendwell/contracts';
import { algorithmName } from '../shared/dnssec/crypto.js';
import type { ChainNote, GoodSignature, Problem, ProblemCode } from '../shared/dnssec/validator.js';

/** A signature is "expiring" when it runs out within this long… */
export const EXPIRING_WITHIN_MS = 7 * 86_400_000;
/**
 * …and less than this share of its validity period is left. Online signers (Cloudflare, and TLDs
 * with a week of validity) always have signatures a few days from expiry and replace them long
 * before: the 7 days alone would warn about nearly every signed zone, while a signer that stopped
 * re-signing shows as a signature deep into its last quarter.
 */
export const EXPIRING_SHARE = 0.25;

interface ProblemText {
  severity: Finding['severity'];
  rfc: string;
  /** The first words of the message; the problem's detail follows. */
  lead: (subject: string) => string;
  recommendation: (subject: string) => string | undefined;
}

const BOGUS = "Validating resolvers answer SERVFAIL for data that fails validation, so mail servers that check DNSSEC can neither find this domain's mail servers nor read its SPF and DMARC records.";

const TEXTS: Record<ProblemCode, ProblemText> = {
  DNSSEC_SIGNATURE_INVALID: {
    severity: 'error',
    rfc: 'RFC 4035 §5.3.3',
    lead: (subject) => `DNSSEC validation of ${subject} fails (bogus): `,
    recommendation: () => 'Re-sign the zone: the signatures no longer match the records or the published keys (a record edited behind the signer, or keys replaced without re-signing).',
  },
  DNSSEC_SIGNATURE_EXPIRED: {
    severity: 'error',
    rfc: 'RFC 4035 §5.3.1',
    lead: (subject) => `DNSSEC validation of ${subject} fails (bogus): `,
    recommendation: () => "Re-sign the zone now, then find out why the signer's automatic re-signing stopped (a stopped signer, a failed zone transfer to the name servers).",
  },
  DNSSEC_SIGNATURE_NOT_YET_VALID: {
    severity: 'error',
    rfc: 'RFC 4035 §5.3.1',
    lead: (subject) => `DNSSEC validation of ${subject} fails (bogus): `,
    recommendation: () => "Check the signing system's clock, and re-sign the zone with an inception time in the past.",
  },
  DNSSEC_RRSIG_MISSING: {
    severity: 'error',
    rfc: 'RFC 4035 §2.2',
    lead: (subject) => `DNSSEC validation of ${subject} fails (bogus): `,
    recommendation: () => 'Sign every RRset of the zone, on every name server: in a signed zone an unsigned answer is treated as forged.',
  },
  DNSSEC_KEY_MISSING: {
    severity: 'error',
    rfc: 'RFC 4035 §5.3.1',
    lead: (subject) => `DNSSEC validation of ${subject} fails (bogus): `,
    recommendation: () => 'Publish the DNSKEY the zone is signed with (a key rollover must publish the new key before signing with it, RFC 6781 §4.1).',
  },
  DNSSEC_SIGNER_MISMATCH: {
    severity: 'error',
    rfc: 'RFC 4035 §5.3.1',
    lead: (subject) => `DNSSEC validation of ${subject} fails (bogus): `,
    recommendation: () => 'Sign the records with the keys of the zone that holds them.',
  },
  DNSSEC_DS_MISMATCH: {
    severity: 'error',
    rfc: 'RFC 4035 §5.2',
    lead: (subject) => `The DNSSEC chain of trust to ${subject} is broken (bogus): `,
    recommendation: (subject) =>
      `Update the DS record of ${subject} at the registrar to the key the zone publishes now (or publish the key the DS names again); if DNSSEC was turned off at the DNS host, remove the DS record.`,
  },
  DNSSEC_TRUST_ANCHOR_FAILED: {
    severity: 'warning',
    rfc: 'RFC 4035 §5',
    lead: (subject) => `The keys of ${subject} do not validate against the scanner's trust anchor, so no zone could be checked (a fault of the scanner's configuration, not of this domain): `,
    recommendation: () => undefined,
  },
  DNSSEC_DNSKEY_MISSING: {
    severity: 'error',
    rfc: 'RFC 4035 §5.2',
    lead: (subject) => `The DNSSEC chain of trust to ${subject} is broken (bogus): `,
    recommendation: (subject) => `Serve the zone signed, with its DNSKEY records, or remove the DS record of ${subject} at the registrar.`,
  },
  DNSSEC_DENIAL_UNSIGNED: {
    severity: 'error',
    rfc: 'RFC 4035 §3.1.3',
    lead: (subject) => `Whether ${subject} is signed cannot be established (bogus): `,
    recommendation: () => "Sign the parent zone's negative answers (SOA, NSEC or NSEC3 with their RRSIGs).",
  },
  DNSSEC_ALGORITHM_UNSUPPORTED: {
    severity: 'warning',
    rfc: 'RFC 4035 §5.2',
    lead: (subject) => `${subject} is signed with an algorithm validators do not support, so they treat it as unsigned: `,
    recommendation: () => 'Re-sign the zone with ECDSA P-256/SHA-256 (13) or RSA/SHA-256 (8), the algorithms every validator supports (RFC 8624 §3.1), and replace the DS record.',
  },
  DNSSEC_DIGEST_UNSUPPORTED: {
    severity: 'warning',
    rfc: 'RFC 4035 §5.2',
    lead: (subject) => `The DS records of ${subject} use a digest validators do not support, so they treat the zone as unsigned: `,
    recommendation: () => 'Publish a DS record with a SHA-256 digest (digest type 2, RFC 8624 §3.3).',
  },
  DNSSEC_LOOKUP_FAILED: {
    severity: 'info',
    rfc: 'RFC 4035 §4',
    lead: () => 'A DNSSEC lookup failed: ',
    recommendation: () => undefined,
  },
  DNSSEC_NO_TRUST_ANCHOR: {
    severity: 'warning',
    rfc: 'RFC 4033 §5',
    lead: (subject) => `${subject} cannot be validated: `,
    recommendation: () => undefined,
  },
  DNSSEC_VALIDATION_LIMIT: {
    severity: 'warning',
    rfc: 'RFC 4035 §5.3.3',
    lead: (subject) => `DNSSEC validation of ${subject} was stopped, so it is neither secure nor bogus here: `,
    recommendation: () =>
      'Publish one key per key tag, one signature per key and algorithm, and RSA keys of at most 4096 bits with the exponent 65537, as DNSSEC signers do. Since the KeyTrap disclosure (CVE-2023-50387) validating resolvers refuse to spend more on a zone and answer SERVFAIL.',
  },
  DNSSEC_UNSIGNED: {
    severity: 'info',
    rfc: 'RFC 4033 §5',
    lead: (subject) => `${subject} is not DNSSEC-signed: `,
    recommendation: () =>
      'Optional hardening: sign the zone at your DNS host and publish its DS record at the registrar. Signed answers cannot be forged on the way, and DANE for the MX hosts needs them.',
  },
};

function sentence(text: string): string {
  return text.endsWith('.') ? text : `${text}.`;
}

/** The finding of a problem (for the domain's chain or one of the RRsets read). */
export function problemFinding(problem: Problem, subjectOverride?: string): Finding {
  const text = TEXTS[problem.code];
  const subject = subjectOverride ?? problem.subject;
  const bogus = text.severity === 'error' ? ` ${BOGUS}` : '';
  const recommendation = text.recommendation(problem.subject);
  return {
    code: problem.code,
    severity: text.severity,
    message: `${text.lead(subject)}${sentence(problem.detail)}${bogus}`,
    rfc: text.rfc,
    ...(recommendation ? { recommendation } : {}),
  };
}

export function noteFinding(note: ChainNote): Finding {
  if (note.kind === 'sha1-ds') {
    return {
      code: 'DNSSEC_DS_SHA1',
      severity: 'warning',
      message: `The DS records of ${note.zone} use only SHA-1 digests, which must no longer be published (validators that drop SHA-1 will treat the zone as unsigned).`,
      rfc: 'RFC 8624 §3.3',
      recommendation: `Publish a DS record of ${note.zone} with a SHA-256 digest (digest type 2) at the registrar, then remove the SHA-1 one.`,
    };
  }
  const name = algorithmName(note.algorithm ?? 0);
  return {
    code: 'DNSSEC_ALGORITHM_DEPRECATED',
    severity: 'warning',
    message: `${note.zone} is signed with ${name} (algorithm ${note.algorithm}), deprecated for signing: validators are dropping SHA-1 signatures and will then treat the zone as unsigned.`,
    rfc: 'RFC 8624 §3.1',
    recommendation: `Roll ${note.zone} over to ECDSA P-256/SHA-256 (13) or RSA/SHA-256 (8), with a new DS record at the parent.`,
  };
}

/** One finding for the signatures close to expiry, naming the earliest. */
export function expiringFinding(signatures: readonly GoodSignature[], now: number): Finding | null {
  const expiring = signatures
    .filter((sig) => sig.expirationMs - now < EXPIRING_WITHIN_MS && sig.expirationMs - now < (sig.expirationMs - sig.inceptionMs) * EXPIRING_SHARE)
    .sort((a, b) => a.expirationMs - b.expirationMs);
  const first = expiring[0];
  if (!first) return null;
  const subjects = [...new Set(expiring.map((sig) => sig.subject))];
  const hours = Math.max(0, Math.round((first.expirationMs - now) / 3_600_000));
  const when = hours < 48 ? `${hours} hour${hours === 1 ? '' : 's'}` : `${Math.round(hours / 24)} days`;
  return {
    code: 'DNSSEC_SIGNATURE_EXPIRING',
    severity: 'warning',
    message: `The RRSIG over ${first.subject} expires in ${when} (${new Date(first.expirationMs).toISOString()}), late in its validity period${subjects.length > 1 ? `; also close to expiry: ${subjects.slice(1, 6).join(', ')}` : ''}. Once expired, validating resolvers treat the records as forged.`,
    rfc: 'RFC 6781 §4.4.2',
    recommendation: 'Check that the signer re-signs the zone automatically and that the name servers receive the re-signed zone.',
  };
}

/** A record of the signed domain answered (through a CNAME) from a zone that is not signed. */
export function recordInsecureFinding(name: string, type: string, zone: string): Finding {
  return {
    code: 'DNSSEC_RECORD_INSECURE',
    severity: 'info',
    message: `The ${type} record of ${name} is answered through a CNAME from ${zone}, which is not DNSSEC-signed, so it cannot be validated though the domain's own zone is signed.`,
    rfc: 'RFC 4035 §5.2',
  };
}

export function tlsaInsecureFinding(name: string, zone: string): Finding {
  return {
    code: 'DNSSEC_TLSA_INSECURE',
    severity: 'info',
    message: `The TLSA records at ${name} are in ${zone}, which is not DNSSEC-signed: senders use TLSA records only when they validate, so DANE is not in effect for this host.`,
    rfc: 'RFC 7672 §2.2',
    recommendation: `Sign ${zone} (with its DS at the parent), or remove the TLSA records at ${name}.`,
  };
}

export function domainNotFoundFinding(domain: string, zone: string): Finding {
  return {
    code: 'DNSSEC_DOMAIN_NOT_FOUND',
    severity: 'info',
    message: `${domain} does not exist in DNS (NXDOMAIN from ${zone}), so there is no zone to validate.`,
    rfc: 'RFC 4035 §5',
  };
}
