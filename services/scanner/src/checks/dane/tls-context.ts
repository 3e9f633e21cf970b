import tls from 'node:tls';

let context: tls.SecureContext | undefined;

/**
 * The DANE probe's STARTTLS context: like the SMTP check's (TLS 1.0 upwards, security level 0, so
 * any handshake a sender could make completes), but trusting no CA at all. DANE authenticates with
 * the TLSA records, not the Web PKI (RFC 7672 §3.1), and OpenSSL completes the peer chain from the
 * trust store: with an empty one, getPeerCertificate(true) is exactly the chain the server presented,
 * which DANE-TA(2) requires to include the trust anchor (RFC 7672 §3.1.2).
 */
export function daneContext(): tls.SecureContext {
  context ??= tls.createSecureContext({ ca: [], minVersion: 'TLSv1', ciphers: 'DEFAULT:@SECLEVEL=0' });
  return context;
}
