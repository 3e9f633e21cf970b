/**
 * Child process: the web servers of the benchmark's domains, one TLS listener on loopback that picks
 * the certificate by SNI (each certificate covers a group of domains and their www names, issued by
 * the benchmark's test CA). It completes the handshake and closes, as the check needs nothing more.
 */
import net from 'node:net';
import tls from 'node:tls';

interface Group {
  cert: string;
  key: string;
  names: string[];
}

// The certificates come over IPC: a few hundred kB of PEM is too much for an environment variable.
const groups = await new Promise<Group[]>((resolve) => process.once('message', (message: { groups: Group[] }) => resolve(message.groups)));
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
server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => {
  process.send?.({ type: 'ready', port: (server.address() as net.AddressInfo).port });
});
process.on('disconnect', () => server.close(() => process.exit(0)));
