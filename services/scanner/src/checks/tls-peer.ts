import tls from 'node:tls';

/**
 * Reading the peer's certificates off a TLS socket without paying for what is not read. Node's
 * client handshake (onConnectSecure) calls getPeerCertificate(true) whenever OpenSSL trusted the
 * chain, converting the whole chain up to the root into objects (~200 µs) only to hand the leaf's
 * names to checkServerIdentity; the chain verdict itself is OpenSSL's (`authorized`,
 * `authorizationError`) either way.
 */

/**
 * Makes `socket.getPeerCertificate` answer with the leaf alone, converted once (~30 µs) and read
 * again by every later call. Call it right after tls.connect, before the handshake ends.
 * (getPeerX509Certificate is no cheaper for the fields the checks read, and on Node 20 a client's
 * call removes the leaf from the peer chain it reads.)
 */
export function convertLeafOnce(socket: tls.TLSSocket): void {
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

/**
 * The peer's certificates as DER, the leaf first, then each issuer in turn (getPeerCertificate(true)
 * links them by issuance; certificates the server sent that issue nothing in the chain are left out).
 * OpenSSL completes the chain from the context's trust store: with a context that trusts no CA, it
 * is exactly what the server presented. Reads the whole chain even on a socket given convertLeafOnce.
 */
export function peerChain(socket: tls.TLSSocket): Buffer[] {
  const chain: Buffer[] = [];
  let cert: tls.DetailedPeerCertificate | undefined = tls.TLSSocket.prototype.getPeerCertificate.call(socket, true) as tls.DetailedPeerCertificate;
  const seen = new Set<tls.DetailedPeerCertificate>();
  while (cert && Object.keys(cert).length > 0 && Buffer.isBuffer(cert.raw) && !seen.has(cert)) {
    seen.add(cert);
    chain.push(cert.raw);
    // A self-signed root is its own issuer.
    cert = cert.issuerCertificate;
  }
  return chain;
}
