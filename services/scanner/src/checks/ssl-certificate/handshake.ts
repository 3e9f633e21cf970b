import { isIP } from 'node:net';
import tls from 'node:tls';
import { describeSocketError } from '@sendwell/server-kit';

export interface Handshake {
  socket: tls.TLSSocket | null;
  error: string | null;
  errorCode?: string;
}

/** Node's default roots plus the configured extra CA, built once per distinct extra CA. */
const contexts = new Map<string, tls.SecureContext>();
export function secureContextFor(extraCa: string | undefined): tls.SecureContext | undefined {
  if (!extraCa) return undefined;
  let context = contexts.get(extraCa);
  if (!context) {
    context = tls.createSecureContext({ ca: [...tls.rootCertificates, extraCa] });
    contexts.set(extraCa, context);
  }
  return context;
}

/** One handshake; the socket is always destroyed before the promise settles or right after reading it. */
export function handshake(address: string, host: string, port: number, timeoutMs: number, context: tls.SecureContext | undefined): Promise<Handshake> {
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
    socket.on('error', (error: NodeJS.ErrnoException) => finish({ socket: null, error: describeSocketError(error), ...(error.code ? { errorCode: error.code } : {}) }));
    socket.once('close', () => finish({ socket: null, error: 'the connection closed before the TLS handshake finished' }));
  });
}

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
