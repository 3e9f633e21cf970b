import tls from 'node:tls';

/**
 * The STARTTLS client's context: the system roots plus the configured extra CA, TLS 1.0 upwards and
 * OpenSSL security level 0. OpenSSL 3 refuses TLS 1.0/1.1 above level 0, and a probe must complete
 * such a handshake to report the old version (RFC 8996) instead of failing like a plaintext server.
 * Nothing secret travels over this connection, so accepting weak parameters costs nothing; the chain
 * verdict (`authorized`) is still OpenSSL's. One context per extra CA, made once.
 */
const contexts = new Map<string, tls.SecureContext>();

export function starttlsContext(extraCa: string | undefined): tls.SecureContext {
  const key = extraCa ?? '';
  let context = contexts.get(key);
  if (!context) {
    context = tls.createSecureContext({
      ...(extraCa ? { ca: [...tls.rootCertificates, extraCa] } : {}),
      minVersion: 'TLSv1',
      ciphers: 'DEFAULT:@SECLEVEL=0',
    });
    contexts.set(key, context);
  }
  return context;
}
