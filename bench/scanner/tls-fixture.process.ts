/**
 * Child process: the web servers of the benchmark's domains. One TLS listener on loopback that
 * picks the certificate by SNI (each certificate covers a group of domains and their www, MTA-STS
 * and BIMI names, issued by the benchmark's test CA) and completes the handshake and closes, as the
 * certificate check needs nothing more; and one HTTPS server (@sendwell/testing's startHttpsServer,
 * on `httpsPort`) serving the MTA-STS policies and the BIMI logos and Mark Certificates.
 */
import type net from 'node:net';
import tls from 'node:tls';
import { startHttpsServer, type HttpsFixtureHost } from '@sendwell/testing';
import type { CertificateGroup, HttpsHostPlan } from './fixture-certs.js';

interface Setup {
  groups: CertificateGroup[];
  https: Record<string, HttpsHostPlan>;
}

// The certificates come over IPC: a few hundred kB of PEM is too much for an environment variable.
const setup = await new Promise<Setup>((resolve) => process.once('message', (message: Setup) => resolve(message)));
const { groups } = setup;
const contexts = new Map<string, tls.SecureContext>();
for (const group of groups) {
  const context = tls.createSecureContext({ cert: group.cert, key: group.key });
  for (const name of group.names) contexts.set(name, context);
}
const fallback = groups[0];
if (!fallback) throw new Error('no certificates received');

const server = tls.createServer(
  {
    cert: fallback.cert,
    key: fallback.key,
    SNICallback(servername, callback) {
      callback(null, contexts.get(servername.toLowerCase()));
    },
  },
  (socket) => {
    socket.on('error', () => undefined);
    socket.end();
  },
);
server.on('tlsClientError', () => undefined);
const tlsPort = await new Promise<number>((resolve) =>
  server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => resolve((server.address() as net.AddressInfo).port)),
);

const hosts: Record<string, HttpsFixtureHost> = {};
for (const [name, host] of Object.entries(setup.https)) {
  const group = groups[host.group] as CertificateGroup;
  hosts[name] = { certificate: { cert: group.cert, key: group.key }, paths: host.paths };
}
const https = await startHttpsServer({ hosts, defaultCertificate: fallback });
process.send?.({ type: 'ready', port: tlsPort, httpsPort: https.port, httpsHosts: Object.keys(hosts).length });
process.on('message', (message: { type?: string }) => {
  if (message.type === 'stats') process.send?.({ type: 'stats', httpsRequests: https.requests.length });
});
process.on('disconnect', () => {
  void https.close().then(() => server.close(() => process.exit(0)));
});
