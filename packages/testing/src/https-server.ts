import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type net from 'node:net';
import tls from 'node:tls';
import type { TestCertificate } from './tls.js';

/**
 * A real HTTPS server on 127.0.0.1 (random port) serving fixed answers per SNI host name, each host
 * with its own certificate: stands in for the web hosts the scanner fetches from (the MTA-STS policy
 * at https://mta-sts.{domain}/.well-known/mta-sts.txt). Point a domain's policy host at 127.0.0.1 in
 * the fixture DNS server and the scanner's HTTPS port at `port`.
 */

/** One path's answer. */
export interface HttpsFixtureResponse {
  /** Default 200, or 301 with `redirect`. */
  status?: number;
  /** The Content-Type header; default "text/plain; charset=utf-8", null sends none. */
  contentType?: string | null;
  /** Default empty. */
  body?: string | Buffer;
  /** A Location header: the answer is a redirect (301 unless `status` says otherwise). */
  redirect?: string;
  /** Answer only after this long (a slow server). */
  delayMs?: number;
}

/** One host name: the certificate it presents (chosen by SNI) and its paths. */
export interface HttpsFixtureHost {
  certificate: TestCertificate;
  /** Chain certificates sent after the leaf (PEM), e.g. an intermediate. */
  chain?: string | string[];
  /** Path (without query) to answer; any other path gets 404. */
  paths?: Record<string, HttpsFixtureResponse>;
}

export interface HttpsServerOptions {
  /** Host names (any case) to what they serve. */
  hosts: Record<string, HttpsFixtureHost>;
  /** Presented without SNI or for an unknown name; default the first host's certificate. */
  defaultCertificate?: TestCertificate;
}

export interface HttpsRequestLogEntry {
  /** The SNI name of the connection (lower-case), null without SNI. */
  serverName: string | null;
  /** The Host header as sent. */
  hostHeader: string | null;
  method: string;
  /** Path with query. */
  path: string;
  /** The status answered. */
  status: number;
}

export interface TestHttpsServer {
  host: '127.0.0.1';
  port: number;
  /** Every request answered, in order. */
  readonly requests: HttpsRequestLogEntry[];
  /** SNI names received in ClientHello, in order, including handshakes that failed later. */
  readonly serverNames: string[];
  /** Adds, replaces or (with undefined) removes a host. */
  setHost(name: string, host: HttpsFixtureHost | undefined): void;
  /** Adds, replaces or (with undefined) removes one path's answer of a configured host. */
  setPath(name: string, path: string, response: HttpsFixtureResponse | undefined): void;
  close(): Promise<void>;
}

const DEFAULT_CONTENT_TYPE = 'text/plain; charset=utf-8';

function pemList(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function contextFor(host: HttpsFixtureHost): tls.SecureContext {
  return tls.createSecureContext({ cert: [host.certificate.cert, ...pemList(host.chain)].join('\n'), key: host.certificate.key });
}

/** The host a request is for: the connection's SNI name, else the Host header without its port. */
function requestHost(req: IncomingMessage): string | null {
  const sni = (req.socket as tls.TLSSocket).servername;
  if (typeof sni === 'string' && sni !== '') return sni.toLowerCase();
  const header = req.headers.host;
  return header ? header.replace(/:\d+$/, '').toLowerCase() : null;
}

export async function startHttpsServer(options: HttpsServerOptions): Promise<TestHttpsServer> {
  const hosts = new Map<string, HttpsFixtureHost>();
  const contexts = new Map<string, tls.SecureContext>();
  const setHost = (name: string, host: HttpsFixtureHost | undefined): void => {
    const key = name.toLowerCase();
    if (host === undefined) {
      hosts.delete(key);
      contexts.delete(key);
    } else {
      hosts.set(key, { ...host, paths: { ...host.paths } });
      contexts.set(key, contextFor(host));
    }
  };
  for (const [name, host] of Object.entries(options.hosts)) setHost(name, host);
  const fallback = options.defaultCertificate ?? Object.values(options.hosts)[0]?.certificate;
  if (!fallback) throw new Error('startHttpsServer needs at least one host or a defaultCertificate');

  const requests: HttpsRequestLogEntry[] = [];
  const serverNames: string[] = [];
  const answer = (req: IncomingMessage, res: ServerResponse): void => {
    const name = requestHost(req);
    const path = req.url ?? '/';
    const response = (name === null ? undefined : hosts.get(name)?.paths?.[path.split('?')[0] ?? path]) ?? { status: 404, body: 'not found\n' };
    const status = response.status ?? (response.redirect ? 301 : 200);
    const send = (): void => {
      // A delayed answer to a client that gave up (or a server closed meanwhile) is neither sent nor logged.
      if (res.destroyed || !server.listening) return;
      const sni = (req.socket as tls.TLSSocket).servername;
      requests.push({ serverName: typeof sni === 'string' && sni !== '' ? sni.toLowerCase() : null, hostHeader: req.headers.host ?? null, method: req.method ?? 'GET', path, status });
      const headers: Record<string, string> = {};
      const contentType = response.contentType === undefined ? DEFAULT_CONTENT_TYPE : response.contentType;
      if (contentType !== null) headers['content-type'] = contentType;
      if (response.redirect) headers['location'] = response.redirect;
      res.writeHead(status, headers).end(response.body ?? '');
    };
    if (response.delayMs) setTimeout(send, response.delayMs).unref();
    else send();
  };

  const sockets = new Set<net.Socket>();
  const server: Server = createServer(
    {
      cert: fallback.cert,
      key: fallback.key,
      SNICallback(servername, callback) {
        serverNames.push(servername.toLowerCase());
        callback(null, contexts.get(servername.toLowerCase()));
      },
    },
    answer,
  );
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // A client that rejects the certificate aborts the handshake: nothing to report here.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;

  return {
    host: '127.0.0.1',
    port,
    requests,
    serverNames,
    setHost,
    setPath(name, path, response) {
      const host = hosts.get(name.toLowerCase());
      if (!host) throw new Error(`setPath: no host ${name}`);
      const paths = { ...host.paths };
      if (response === undefined) delete paths[path];
      else paths[path] = response;
      hosts.set(name.toLowerCase(), { ...host, paths });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
