import type { Finding } from '@sendwell/contracts';
import { describeRefused } from '../outbound-targets.js';
import type { HostResult } from './host-result.js';

/** Days before expiry from which the certificate is reported as expiring soon. */
const EXPIRY_WARNING_DAYS = 30;
const MIN_RSA_BITS = 2048;

/** authorizationError codes (OpenSSL X509_V_ERR_*) in plain words, with their finding code. */
const AUTH_ERRORS: Record<string, { code: string; text: string; rfc: string }> = {
  CERT_HAS_EXPIRED: { code: 'SSL_EXPIRED', text: 'the certificate has expired', rfc: 'RFC 5280 §4.1.2.5' },
  CERT_NOT_YET_VALID: { code: 'SSL_NOT_YET_VALID', text: 'the certificate is not valid yet', rfc: 'RFC 5280 §4.1.2.5' },
  DEPTH_ZERO_SELF_SIGNED_CERT: { code: 'SSL_SELF_SIGNED', text: 'the certificate is self-signed, so no browser or mail client trusts it', rfc: 'RFC 5280 §6.1' },
  SELF_SIGNED_CERT_IN_CHAIN: { code: 'SSL_UNTRUSTED_CHAIN', text: 'the chain ends in a self-signed root that is not trusted', rfc: 'RFC 5280 §6.1' },
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: { code: 'SSL_UNTRUSTED_CHAIN', text: 'the certificate cannot be verified: the intermediate certificate is missing or the issuer is not trusted', rfc: 'RFC 5280 §6.1' },
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: { code: 'SSL_UNTRUSTED_CHAIN', text: "the issuer's certificate is missing or not trusted (send the intermediate certificates)", rfc: 'RFC 5280 §6.1' },
  UNABLE_TO_GET_ISSUER_CERT: { code: 'SSL_UNTRUSTED_CHAIN', text: "the issuer's certificate could not be found", rfc: 'RFC 5280 §6.1' },
  CERT_SIGNATURE_FAILURE: { code: 'SSL_INVALID', text: 'the certificate signature is invalid', rfc: 'RFC 5280 §6.1' },
  CERT_REVOKED: { code: 'SSL_INVALID', text: 'the certificate has been revoked', rfc: 'RFC 5280 §6.3' },
  CERT_UNTRUSTED: { code: 'SSL_UNTRUSTED_CHAIN', text: 'the certificate is not trusted', rfc: 'RFC 5280 §6.1' },
  INVALID_CA: { code: 'SSL_UNTRUSTED_CHAIN', text: 'an issuer in the chain is not a valid CA', rfc: 'RFC 5280 §4.2.1.9' },
  CERT_CHAIN_TOO_LONG: { code: 'SSL_UNTRUSTED_CHAIN', text: 'the certificate chain is too long', rfc: 'RFC 5280 §4.2.1.9' },
};

/** Judged from the certificate's dates and checkServerIdentity instead of the chain verdict. */
const DATE_OR_NAME_ERRORS = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'ERR_TLS_CERT_ALTNAME_INVALID']);

/** Handshake failures that mean the server offers no protocol version we offer (TLS 1.2 and 1.3). */
const OLD_PROTOCOL_ERROR = /PROTOCOL_VERSION|UNSUPPORTED_PROTOCOL|NO_PROTOCOLS_AVAILABLE/;

/** A host whose addresses (or name) the outbound guard refused: a finding, never a connection. */
export function refusedFinding(result: HostResult): Finding {
  return {
    code: 'SSL_PRIVATE_ADDRESS',
    severity: 'warning',
    message: `${result.host}: points at ${describeRefused(result.refused)}, which the scanner does not connect to.`,
    rfc: 'RFC 6890',
    recommendation: `Publish only public addresses in the A and AAAA records of ${result.host}.`,
    host: result.host,
  };
}

/** A host that was connected to (or tried): no connection says it all; otherwise dates, trust and strength. */
export function connectionFindings(result: HostResult, now: number): Finding[] {
  const failed = failedConnectionFinding(result);
  if (failed) return [failed];
  return [...validityFindings(result, now), ...trustFindings(result), ...strengthFindings(result)];
}

/** The finding's message names its host, and the finding carries it. */
function hostFinding(result: HostResult, code: string, severity: Finding['severity'], message: string, rfc: string, recommendation: string): Finding {
  return { code, severity, message: `${result.host}: ${message}`, rfc, recommendation, host: result.host };
}

function failedConnectionFinding(result: HostResult): Finding | null {
  if (!result.reachable && result.errorCode !== null && OLD_PROTOCOL_ERROR.test(result.errorCode)) {
    return hostFinding(
      result,
      'SSL_WEAK_PROTOCOL',
      'error',
      `the server offers only protocol versions older than TLS 1.2, which current clients refuse (${result.errorCode}).`,
      'RFC 8996 §2',
      'Enable TLS 1.2 and TLS 1.3 on the server and disable older protocol versions.',
    );
  }
  if (!result.reachable) {
    return hostFinding(
      result,
      'SSL_UNREACHABLE',
      'error',
      `no TLS connection on port ${result.port}${result.address ? ` at ${result.address}` : ''} (${result.error ?? 'unknown error'}).`,
      'RFC 8446 §4',
      `Serve HTTPS on port ${result.port} with a valid certificate, or remove the address record if the host serves nothing.`,
    );
  }
  if (result.error) {
    return hostFinding(result, 'SSL_INVALID', 'error', `${result.error}.`, 'RFC 8446 §4.4.2', 'Configure the server with a certificate and its chain.');
  }
  return null;
}

/** Expired, not yet valid, or expiring within EXPIRY_WARNING_DAYS (RFC 5280 §4.1.2.5): at most one. */
function validityFindings(result: HostResult, now: number): Finding[] {
  const expiresAt = result.expiresAt ? Date.parse(result.expiresAt) : Number.NaN;
  const validFrom = result.validFrom ? Date.parse(result.validFrom) : Number.NaN;
  if (!Number.isNaN(expiresAt) && expiresAt <= now) {
    return [hostFinding(result, 'SSL_EXPIRED', 'error', `the certificate expired on ${result.expiresAt} (${-(result.daysRemaining ?? 0)} days ago).`, 'RFC 5280 §4.1.2.5', 'Renew the certificate now and install it with its chain; automate renewal (ACME, RFC 8555).')];
  }
  if (!Number.isNaN(validFrom) && validFrom > now) {
    return [hostFinding(result, 'SSL_NOT_YET_VALID', 'error', `the certificate is not valid until ${result.validFrom}.`, 'RFC 5280 §4.1.2.5', "Install a currently valid certificate, or check the server's clock and the certificate's dates.")];
  }
  if (result.daysRemaining !== null && result.daysRemaining <= EXPIRY_WARNING_DAYS) {
    return [hostFinding(result, 'SSL_EXPIRING_SOON', 'warning', `the certificate expires in ${result.daysRemaining} day${result.daysRemaining === 1 ? '' : 's'} (${result.expiresAt}).`, 'RFC 5280 §4.1.2.5', 'Renew the certificate before it expires; automate renewal (ACME, RFC 8555).')];
  }
  return [];
}

/** The chain verdict (RFC 5280 §6) and the host name (RFC 6125 §6). */
function trustFindings(result: HostResult): Finding[] {
  const findings: Finding[] = [];
  const authError = result.authorizationError;
  // Node reports a failed checkServerIdentity as ERR_TLS_CERT_ALTNAME_INVALID; the host name is judged below.
  if (authError && !DATE_OR_NAME_ERRORS.has(authError)) {
    const known = AUTH_ERRORS[authError];
    findings.push(
      hostFinding(
        result,
        known?.code ?? 'SSL_INVALID',
        'error',
        `the certificate is not trusted: ${known?.text ?? authError} (${authError}).`,
        known?.rfc ?? 'RFC 5280 §6.1',
        'Install a certificate from a publicly trusted CA and send the full chain (leaf and intermediates).',
      ),
    );
  }
  if (result.hostnameMatches === false) {
    findings.push(
      hostFinding(
        result,
        'SSL_HOSTNAME_MISMATCH',
        'error',
        `the certificate is issued for ${result.altNames.length > 0 ? result.altNames.join(', ') : (result.subject ?? 'another name')}, not for ${result.host}.`,
        'RFC 6125 §6',
        `Issue a certificate whose subjectAltName includes ${result.host}.`,
      ),
    );
  }
  return findings;
}

/** A deprecated protocol version (RFC 8996) and a short RSA key. */
function strengthFindings(result: HostResult): Finding[] {
  const findings: Finding[] = [];
  if (result.protocol && /^(?:SSLv|TLSv1$|TLSv1\.1$)/.test(result.protocol)) {
    findings.push(hostFinding(result, 'SSL_WEAK_PROTOCOL', 'warning', `the server negotiated ${result.protocol}, which is deprecated.`, 'RFC 8996 §2', 'Enable TLS 1.2 and TLS 1.3 and disable older protocol versions.'));
  }
  if (result.keyType === 'RSA' && result.keyBits !== null && result.keyBits < MIN_RSA_BITS) {
    findings.push(hostFinding(result, 'SSL_WEAK_KEY', 'warning', `the certificate's RSA key has ${result.keyBits} bits.`, 'RFC 8446 §4.2.3', `Reissue the certificate with an RSA key of at least ${MIN_RSA_BITS} bits or an ECDSA key.`));
  }
  return findings;
}
