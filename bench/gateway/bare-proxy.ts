/**
 * The floor of the comparison: the least a Node reverse proxy can do per request (node:http in,
 * one undici keep-alive pool out, the answer buffered back). The gateway's own cost is its
 * distance from this, not from the direct path, on a machine where every hop shares the cores.
 */
import { createServer } from 'node:http';
import { Pool } from 'undici';

const port = Number(process.env.PORT ?? 0);
const pool = new Pool(process.env.UPSTREAM_URL ?? 'http://127.0.0.1:3001', { connections: 128, keepAliveTimeout: 30_000 });

const server = createServer((req, res) => {
  pool
    .request({ method: 'GET', path: req.url ?? '/', headers: { 'x-request-id': 'bench' } })
    .then(async (upstream) => {
      const body = Buffer.from(await upstream.body.arrayBuffer());
      res.writeHead(upstream.statusCode, { 'content-type': String(upstream.headers['content-type']), 'content-length': body.length });
      res.end(body);
    })
    .catch(() => {
      res.writeHead(502).end();
    });
}).listen(port, '127.0.0.1');
// An orderly exit, so `--cpu-prof` writes its profile.
process.on('SIGTERM', () => server.close(() => process.exit(0)));
