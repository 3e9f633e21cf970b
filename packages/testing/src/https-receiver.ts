import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arrivals } from './arrivals.js';
import { createTestCa, issueCert } from './tls.js';

export interface ReceivedRequest {
  method: string;
  /** Path with query. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body, as sent (a webhook signature covers exactly these bytes). */
  body: string;
  /** The body parsed, when JSON. */
  json: unknown;
  /** The status this server answered. */
  status: number;
}

/** What to answer a request: a status and a body (default 200 and `{}`). */
export type Responder = (request: Omit<ReceivedRequest, 'status'>) => { status?: number; body?: string; delayMs?: number } | undefined;

export interface HttpsReceiver {
  /** https://127.0.0.1:<port> */
  url: string;
  /** A PEM file holding the CA that signed this server's certificate, for OUTBOUND_EXTRA_CA_FILE. */
  caFile: string;
  requests: ReceivedRequest[];
  /** Resolves with the first request (already received or arriving later) matching the predicate. */
  waitFor(predicate: (request: ReceivedRequest) => boolean, timeoutMs?: number): Promise<ReceivedRequest>;
  /** Replaces how requests are answered (null: 200 `{}` to everything). */
  respond(responder: Responder | null): void;
  /** Requests received so far (kept or not). */
  count(): number;
  close(): Promise<void>;
}

export interface HttpsReceiverOptions {
  /** Keep every request for `requests`/`waitFor` (default); a benchmark only counts them. */
  keep?: boolean;
}

/**
 * A real HTTPS server on 127.0.0.1 with a certificate from a test CA, standing for the outside
 * services alerts go to (Slack's and Discord's APIs, a Teams or Zapier webhook, PagerDuty's Events API,
 * a customer's webhook endpoint). It records every request and answers as told.
 */
export async function startHttpsReceiver({ keep = true }: HttpsReceiverOptions = {}): Promise<HttpsReceiver> {
  const ca = await createTestCa({ commonName: 'Sendwell Receiver Test CA' });
  const leaf = await issueCert(ca, { hostnames: ['127.0.0.1', 'localhost'] });
  const dir = await mkdtemp(join(tmpdir(), 'sendwell-receiver-'));
  const caFile = join(dir, 'ca.pem');
  await writeFile(caFile, ca.cert);

  const received = arrivals<ReceivedRequest>();
  let responder: Responder | null = null;
  let count = 0;
  const server: Server = createServer({ cert: leaf.cert, key: leaf.key, keepAliveTimeout: 60_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown = undefined;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const request = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body, json };
      const answer = responder?.(request) ?? {};
      const status = answer.status ?? 200;
      const send = () => {
        count++;
        if (keep) received.push({ ...request, status });
        res.writeHead(status, { 'content-type': 'application/json' }).end(answer.body ?? '{}');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    caFile,
    requests: received.items,
    waitFor: (predicate, timeoutMs = 10_000) =>
      received.waitFor(predicate, timeoutMs, () => `no matching request within ${timeoutMs} ms (received: ${received.items.map((r) => `${r.method} ${r.path}`).join(', ') || 'none'})`),
    respond(next) {
      responder = next;
    },
    count: () => count,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
