import { request as httpRequest } from 'node:http';

/** One request exactly as it goes on the wire: any method, header or body, valid or not. */
export interface RawRequest {
  method: string;
  /** Path and query, already encoded (or deliberately not). */
  path: string;
  headers: Record<string, string>;
  body?: Buffer | string;
  /** Send the body with `Transfer-Encoding: chunked` instead of a Content-Length. */
  chunked?: boolean;
}

export interface RawResponse {
  status: number;
  body: string;
}

const TIMEOUT_MS = 30_000;

/**
 * Sends with node:http rather than fetch: fetch refuses the headers a client can still send (`Expect`,
 * `Content-Length` of its own, odd methods) and this test must send them. A connection the server
 * drops without an answer is reported as status 0, a failure like a 5xx.
 */
export function send(baseUrl: string, req: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    const body = req.body === undefined ? undefined : Buffer.from(req.body);
    const headers: Record<string, string> = { ...req.headers };
    if (body && !req.chunked) headers['content-length'] = String(body.length);
    let status = 0;
    const client = httpRequest(
      { host: url.hostname, port: url.port, method: req.method, path: req.path, headers, timeout: TIMEOUT_MS, agent: false },
      (res) => {
        status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (error) => resolve({ status: 0, body: `response aborted: ${error.message}` }));
      },
    );
    client.on('timeout', () => client.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    // An answer that came before the error counts: a 413 or 400 sent before the whole body was written,
    // or a 431 whose body (to a HEAD) Node's parser then refuses.
    client.on('error', (error) => {
      const raw = (error as { rawPacket?: Buffer }).rawPacket?.toString('latin1') ?? '';
      const answered = status || Number(/^HTTP\/1\.[01] (\d{3}) /.exec(raw)?.[1] ?? 0);
      resolve({ status: answered, body: `${answered ? 'answer' : 'connection'} failed: ${error.message}${raw ? `: ${raw.slice(0, 200)}` : ''}` });
    });
    if (body) {
      if (req.chunked) for (let i = 0; i < body.length; i += 65_536) client.write(body.subarray(i, i + 65_536));
      else client.write(body);
    }
    client.end();
  });
}

const shown = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text);

/** The request as a failure message shows it: enough to replay it by hand, long bodies cut. */
export function describeRequest(req: RawRequest, res: RawResponse): string {
  const headers = Object.entries(req.headers)
    .map(([name, value]) => `  ${name}: ${shown(JSON.stringify(value), 200)}`)
    .join('\n');
  const body = req.body === undefined ? '(none)' : shown(JSON.stringify(req.body.toString()), 500);
  return `${req.method} ${shown(req.path, 300)}${req.chunked ? ' (chunked)' : ''}\n${headers}\n  body: ${body}\n→ ${res.status} ${shown(res.body, 300)}`;
}
