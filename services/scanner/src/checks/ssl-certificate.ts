import { isIP } from 'node:net';
import tls from 'node:tls';
import type { Finding } from '@sendwell/contracts';
import { DnsServerError, DnsTimeoutError, type Resolver } from '../dns/types.js';
import type { Check, CheckResult } from './types.js';

/**
 * SSL certificate check: a TLS handshake with SNI (RFC 6066 §3) to the domain and to www.{domain},
 * validating the chain (RFC 5280 §6), the validity dates (RFC 5280 §4.1.2.5), the host name
 * (RFC 6125 §6) and the protocol version (RFC 8996).
 */

/** Days before expiry from which the certificate is reported as expiring soon. */
const EXPIRY_WARNING_DAYS = 30;
const MIN_RSA_BITS = 2048;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Addresses tried per host name before giving up (A first, then AAAA). */
const MAX_ADDRESSES_PER_HOST = 2;

/** Node's default roots plus the configured extra CA, built once per distinct extra CA. */
const contexts = new Map<string, tls.SecureContext>();
function secureContextFor(extraCa: string | undefined): tls.SecureContext | undefined {
  if (!extraCa) return undefined;
  let context = contexts.get(extraCa);
  if (!context) {
    context = tls.createSecureContext({ ca: [...tls.rootCertificates, extraCa] });
    contexts.set(extraCa, context);
  }
  return context;
}

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

interface HostResult {
  host: string;
  /** 'domain' or 'www'. */
  role: 'domain' | 'www';
  address: string | null;
  port: number;
  reachable: boolean;
  /** The handshake error's code, e.g. ECONNREFUSED. */
  errorCode: string | null;
  /** No A/AAAA record: there is no web host to check. */
  noAddress: boolean;
  dnsError: string | null;
  error: string | null;
  authorized: boolean;
  authorizationError: string | null;
  hostnameMatches: boolean | null;
  protocol: string | null;
  cipher: string | null;
  issuer: string | null;
  subject: string | null;
  altNames: string[];
  validFrom: string | null;
  expiresAt: string | null;
  daysRemaining: number | null;
  keyType: string | null;
  keyBits: number | null;
  serialNumber: string | null;
  fingerprint256: string | null;
  findings: Finding[];
}

function emptyHost(host: string, role: HostResult['role'], port: number): HostResult {
  return {
    host,
    role,
    address: null,
    port,
    reachable: false,
    errorCode: null,
    noAddress: false,
    dnsError: null,
    error: null,
    authorized: false,
    authorizationError: null,
    hostnameMatches: null,
    protocol: null,
    cipher: null,
    issuer: null,
    subject: null,
    altNames: [],
    validFrom: null,
    expiresAt: null,
    daysRemaining: null,
    keyType: null,
    keyBits: null,
    serialNumber: null,
    fingerprint256: null,
    findings: [],
  };
}

function nameOf(entity: tls.Certificate | undefined): string | null {
  if (!entity) return null;
  const pick = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
  const cn = pick(entity.CN);
  const org = pick(entity.O);
  if (cn && org && cn !== org) return `${cn} (${org})`;
  return cn ?? org ?? null;
}

function parseAltNames(value: string | undefined): string[] {
  if (!value) return [];
  return value.split(', ').map((entry) => entry.replace(/^(DNS|IP Address):/, ''));
}

async function addressesOf(resolver: Resolver, host: string): Promise<{ addresses: string[]; error: string | null }> {
  const addresses: string[] = [];
  let error: string | null = null;
  for (const type of ['A', 'AAAA'] as const) {
    try {
      addresses.push(...(await resolver.lookup(host, type)));
    } catch (caught) {
      if (caught instanceof DnsTimeoutError || caught instanceof DnsServerError) error ??= caught.message;
      else throw caught;
    }
  }
  return { addresses, error };
}

interface Handshake {
  socket: tls.TLSSocket | null;
  error: string | null;
  errorCode?: string;
}

/** Handshake failures that mean the server offers no protocol version we offer (TLS 1.2 and 1.3). */
const OLD_PROTOCOL_ERROR = /PROTOCOL_VERSION|UNSUPPORTED_PROTOCOL|NO_PROTOCOLS_AVAILABLE/;

/**
 * Node's client handshake (onConnectSecure) calls getPeerCertificate(true), which converts the whole
 * verified chain up to the root into objects, only to hand the leaf's names to checkServerIdentity.
 * That walk cost more than the rest of the check together; the chain verdict itself comes from
 * OpenSSL (`authorized`, `authorizationError`) either way. So this socket answers with the leaf alone,
 * converted once and read again by inspect(). (getPeerX509Certificate is no cheaper for the fields
 * read here, and on Node 20 a client's call removes the leaf from the peer chain it reads.)
 */
function convertLeafOnce(socket: tls.TLSSocket): void {
  let leaf: tls.PeerCertificate | undefined;
  const getPeerCertificate = (): tls.PeerCertificate => {
    if (leaf) return leaf;
    const cert = tls.TLSSocket.prototype.getPeerCertificate.call(socket, false);
    // Empty before the handshake ends (and null once closed): only a real certificate is kept.
    if (cert && Object.keys(cert).length > 0) leaf = cert;
    return cert;
  };
  Object.defineProperty(socket, 'getPeerCertificate', { value: getPeerCertificate });
}

/** One handshake; the socket is always destroyed before the promise settles or right after reading it. */
function handshake(address: string, host: string, port: number, timeoutMs: number, context: tls.SecureContext | undefined): Promise<Handshake> {
  return new Promise((resolve) => {
    let settled = false;
    const socket = tls.connect({
      host: address,
      port,
      servername: isIP(host) ? undefined : host,
      rejectUnauthorized: false,
      ...(context ? { secureContext: context } : {}),
    });
    convertLeafOnce(socket);
    const finish = (result: Handshake): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (result.socket === null) socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ socket: null, error: `no TLS handshake within ${timeoutMs} ms` }), timeoutMs);
    socket.once('secureConnect', () => finish({ socket, error: null }));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish({ socket: null, error: error.code ? `${error.code}: ${error.message.split('\n')[0]}` : error.message, ...(error.code ? { errorCode: error.code } : {}) }),
    );
    socket.once('close', () => finish({ socket: null, error: 'the connection closed before the TLS handshake finished' }));
  });
}

function inspect(result: HostResult, socket: tls.TLSSocket, now: number): void {
  try {
    result.reachable = true;
    result.authorized = socket.authorized;
    const authError = socket.authorizationError as unknown;
    result.authorizationError =
      authError === null || authError === undefined
        ? null
        : typeof authError === 'string'
          ? authError
          : ((authError as NodeJS.ErrnoException).code ?? (authError as Error).message);
    result.protocol = socket.getProtocol();
    result.cipher = socket.getCipher()?.name ?? null;
    const cert = socket.getPeerCertificate(false);
    if (!cert || Object.keys(cert).length === 0) {
      result.error = 'the server sent no certificate';
      return;
    }
    result.subject = nameOf(cert.subject);
    result.issuer = nameOf(cert.issuer);
    result.altNames = parseAltNames(cert.subjectaltname);
    const validFrom = Date.parse(cert.valid_from);
    const validTo = Date.parse(cert.valid_to);
    result.validFrom = Number.isNaN(validFrom) ? null : new Date(validFrom).toISOString();
    result.expiresAt = Number.isNaN(validTo) ? null : new Date(validTo).toISOString();
    result.daysRemaining = Number.isNaN(validTo) ? null : Math.floor((validTo - now) / DAY_MS);
    result.serialNumber = cert.serialNumber ?? null;
    result.fingerprint256 = cert.fingerprint256 ?? null;
    const detailed = cert as tls.PeerCertificate & { asn1Curve?: string; nistCurve?: string; modulus?: string };
    if (detailed.modulus) result.keyType = 'RSA';
    else if (detailed.asn1Curve || detailed.nistCurve) result.keyType = `EC ${detailed.nistCurve ?? detailed.asn1Curve}`;
    result.keyBits = typeof cert.bits === 'number' ? cert.bits : null;
    result.hostnameMatches = tls.checkServerIdentity(result.host, cert) === undefined;
  } finally {
    socket.destroy();
  }
}

function judge(result: HostResult, now: number): void {
  const add = (code: string, severity: Finding['severity'], message: string, rfc: string, recommendation: string): void => {
    result.findings.push({ code, severity, message: `${result.host}: ${message}`, rfc, recommendation, host: result.host });
  };
  if (!result.reachable && result.errorCode !== null && OLD_PROTOCOL_ERROR.test(result.errorCode)) {
    add(
      'SSL_WEAK_PROTOCOL',
      'error',
      `the server offers only protocol versions older than TLS 1.2, which current clients refuse (${result.errorCode}).`,
      'RFC 8996 §2',
      'Enable TLS 1.2 and TLS 1.3 on the server and disable older protocol versions.',
    );
    return;
  }
  if (!result.reachable) {
    add(
      'SSL_UNREACHABLE',
      'error',
      `no TLS connection on port ${result.port}${result.address ? ` at ${result.address}` : ''} (${result.error ?? 'unknown error'}).`,
      'RFC 8446 §4',
      `Serve HTTPS on port ${result.port} with a valid certificate, or remove the address record if the host serves nothing.`,
    );
    return;
  }
  if (result.error) {
    add('SSL_INVALID', 'error', `${result.error}.`, 'RFC 8446 §4.4.2', 'Configure the server with a certificate and its chain.');
    return;
  }
  const expiresAt = result.expiresAt ? Date.parse(result.expiresAt) : Number.NaN;
  const validFrom = result.validFrom ? Date.parse(result.validFrom) : Number.NaN;
  if (!Number.isNaN(expiresAt) && expiresAt <= now) {
    add('SSL_EXPIRED', 'error', `the certificate expired on ${result.expiresAt} (${-(result.daysRemaining ?? 0)} days ago).`, 'RFC 5280 §4.1.2.5', 'Renew the certificate now and install it with its chain; automate renewal (ACME, RFC 8555).');
  } else if (!Number.isNaN(validFrom) && validFrom > now) {
    add('SSL_NOT_YET_VALID', 'error', `the certificate is not valid until ${result.validFrom}.`, 'RFC 5280 §4.1.2.5', "Install a currently valid certificate, or check the server's clock and the certificate's dates.");
  } else if (result.daysRemaining !== null && result.daysRemaining <= EXPIRY_WARNING_DAYS) {
    add('SSL_EXPIRING_SOON', 'warning', `the certificate expires in ${result.daysRemaining} day${result.daysRemaining === 1 ? '' : 's'} (${result.expiresAt}).`, 'RFC 5280 §4.1.2.5', 'Renew the certificate before it expires; automate renewal (ACME, RFC 8555).');
  }
  const authError = result.authorizationError;
  // Node reports a failed checkServerIdentity as ERR_TLS_CERT_ALTNAME_INVALID; the host name is judged below.
  if (authError && !DATE_OR_NAME_ERRORS.has(authError)) {
    const known = AUTH_ERRORS[authError];
    add(
      known?.code ?? 'SSL_INVALID',
      'error',
      `the certificate is not trusted: ${known?.text ?? authError} (${authError}).`,
      known?.rfc ?? 'RFC 5280 §6.1',
      'Install a certificate from a publicly trusted CA and send the full chain (leaf and intermediates).',
    );
  }
  if (result.hostnameMatches === false) {
    add(
      'SSL_HOSTNAME_MISMATCH',
      'error',
      `the certificate is issued for ${result.altNames.length > 0 ? result.altNames.join(', ') : (result.subject ?? 'another name')}, not for ${result.host}.`,
      'RFC 6125 §6',
      `Issue a certificate whose subjectAltName includes ${result.host}.`,
    );
  }
  if (result.protocol && /^(SSLv|TLSv1$|TLSv1\.1$)/.test(result.protocol)) {
    add('SSL_WEAK_PROTOCOL', 'warning', `the server negotiated ${result.protocol}, which is deprecated.`, 'RFC 8996 §2', 'Enable TLS 1.2 and TLS 1.3 and disable older protocol versions.');
  }
  if (result.keyType === 'RSA' && result.keyBits !== null && result.keyBits < MIN_RSA_BITS) {
    add('SSL_WEAK_KEY', 'warning', `the certificate's RSA key has ${result.keyBits} bits.`, 'RFC 8446 §4.2.3', `Reissue the certificate with an RSA key of at least ${MIN_RSA_BITS} bits or an ECDSA key.`);
  }
}

async function checkHost(
  resolver: Resolver,
  host: string,
  role: HostResult['role'],
  port: number,
  timeoutMs: number,
  context: tls.SecureContext | undefined,
  now: number,
): Promise<HostResult> {
  const result = emptyHost(host, role, port);
  const { addresses, error } = await addressesOf(resolver, host);
  if (addresses.length === 0) {
    if (error) result.dnsError = error;
    else result.noAddress = true;
    return result;
  }
  for (const address of addresses.slice(0, MAX_ADDRESSES_PER_HOST)) {
    result.address = address;
    const attempt = await handshake(address, host, port, timeoutMs, context);
    if (attempt.socket) {
      result.error = null;
      inspect(result, attempt.socket, now);
      break;
    }
    result.error = attempt.error;
    result.errorCode = attempt.errorCode ?? null;
  }
  judge(result, now);
  return result;
}

function hostSummary(result: HostResult): Record<string, unknown> {
  const { findings: _findings, ...rest } = result;
  return rest;
}

export const sslCertificateCheck: Check = async (ctx): Promise<CheckResult> => {
  const { domain, resolver, config } = ctx;
  const now = Date.now();
  const context = secureContextFor(config.tlsExtraCa);
  const [apex, www] = await Promise.all([
    checkHost(resolver, domain, 'domain', config.tlsPort, config.timeoutMs, context, now),
    checkHost(resolver, `www.${domain}`, 'www', config.tlsPort, config.timeoutMs, context, now),
  ]);
  const hosts = [apex, www];
  const findings: Finding[] = [...apex.findings, ...www.findings];
  const tested = hosts.filter((host) => host.address !== null);
  // The certificate shown on the card: the domain's own, else www's when only www has a web host.
  const primary = apex.address !== null ? apex : www.address !== null ? www : apex;

  const base = {
    hosts: hosts.map(hostSummary),
    issuer: primary.issuer,
    expiresAt: primary.expiresAt,
    ...(primary.daysRemaining !== null ? { daysRemaining: primary.daysRemaining } : {}),
    validFrom: primary.validFrom,
    subject: primary.subject,
    altNames: primary.altNames,
    protocol: primary.protocol,
    authorized: primary.reachable ? primary.authorized && primary.hostnameMatches === true : false,
    keyType: primary.keyType,
    keyBits: primary.keyBits,
    serialNumber: primary.serialNumber,
    fingerprint256: primary.fingerprint256,
  };

  if (tested.length === 0) {
    const dnsFailed = apex.dnsError !== null || www.dnsError !== null;
    if (dnsFailed) {
      return {
        type: 'ssl_certificate',
        status: 'unknown',
        value: null,
        message: 'The web host addresses could not be looked up, so the certificate was not checked.',
        recommendation: null,
        details: { ...base, error: apex.dnsError ?? www.dnsError, findings },
      };
    }
    findings.push({
      code: 'SSL_NO_HOST',
      severity: 'info',
      message: `Neither ${domain} nor www.${domain} has an A or AAAA record, so there is no web host whose certificate could be checked.`,
      rfc: 'RFC 6066 §3',
      recommendation: 'Nothing to do if the domain serves no web site; otherwise point it at a web host with a valid certificate.',
    });
    return {
      type: 'ssl_certificate',
      status: 'missing',
      value: null,
      message: `${domain} has no web host to check a certificate on.`,
      recommendation: null,
      details: { ...base, findings },
    };
  }

  if (apex.address === null && apex.noAddress) {
    findings.push({
      code: 'SSL_NO_APEX_HOST',
      severity: 'info',
      message: `${domain} has no A or AAAA record; the certificate of www.${domain} was checked instead.`,
      rfc: 'RFC 6066 §3',
    });
  }

  const errors = findings.filter((finding) => finding.severity === 'error');
  const warnings = findings.filter((finding) => finding.severity === 'warning');
  const status: CheckResult['status'] = errors.length > 0 ? 'error' : warnings.length > 0 ? 'warning' : 'valid';
  const top = errors[0] ?? warnings[0];
  const value = primary.reachable ? `${primary.issuer ?? 'unknown issuer'}${primary.expiresAt ? `, expires ${primary.expiresAt.slice(0, 10)}` : ''}` : null;
  const message = top
    ? top.message
    : `Valid certificate from ${primary.issuer ?? 'a trusted CA'}, expires in ${primary.daysRemaining ?? '?'} days.`;
  return {
    type: 'ssl_certificate',
    status,
    value,
    message,
    recommendation: top?.recommendation ?? null,
    details: { ...base, findings },
  };
};
