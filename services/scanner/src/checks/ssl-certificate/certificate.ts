import tls from 'node:tls';
import type { HostResult } from './host-result.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Reads the handshake's verdict and the leaf certificate into `result`, then destroys the socket. */
export function inspect(result: HostResult, socket: tls.TLSSocket, now: number): void {
  try {
    readConnection(result, socket);
    const cert = socket.getPeerCertificate(false);
    if (!cert || Object.keys(cert).length === 0) {
      result.error = 'the server sent no certificate';
      return;
    }
    readCertificate(result, cert, now);
  } finally {
    socket.destroy();
  }
}

/** OpenSSL's chain verdict (`authorized`, `authorizationError`), the protocol and the cipher. */
function readConnection(result: HostResult, socket: tls.TLSSocket): void {
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
}

/** Names, dates, key and whether the certificate names the host (RFC 6125 §6). */
function readCertificate(result: HostResult, cert: tls.PeerCertificate, now: number): void {
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
