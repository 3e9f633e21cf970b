import { isIP } from 'node:net';
import tls from 'node:tls';
import { describeSocketError } from '@sendwell/server-kit';
import { convertLeafOnce } from '../tls-peer.js';

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
