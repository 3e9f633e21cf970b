import http from 'node:http';

export interface SseEvent {
  event: string;
  data: string;
}

/**
 * A server-sent events reader over a real HTTP connection (node:http): events are queued as they
 * arrive and read in order; `ended` resolves when the server ends the response.
 */
export class SseTestClient {
  private buffer = '';
  private readonly events: SseEvent[] = [];
  private waiting: ((event: SseEvent | null) => void) | null = null;
  private done = false;
  readonly ended: Promise<void>;

  private constructor(
    readonly response: http.IncomingMessage,
    private readonly request: http.ClientRequest,
  ) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => this.onData(chunk));
    this.ended = new Promise((resolve) => {
      response.once('end', () => {
        this.done = true;
        this.waiting?.(null);
        resolve();
      });
    });
  }

  static open(url: string, headers: Record<string, string>): Promise<SseTestClient> {
    return new Promise((resolve, reject) => {
      const request = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) => resolve(new SseTestClient(response, request)));
      request.once('error', reject);
    });
  }

  private onData(chunk: string) {
    this.buffer += chunk;
    for (let end = this.buffer.indexOf('\n\n'); end !== -1; end = this.buffer.indexOf('\n\n')) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const lines = block.split('\n').filter((line) => !line.startsWith(':'));
      if (lines.length === 0) continue;
      const field = (name: string) => lines.filter((l) => l.startsWith(`${name}:`)).map((l) => l.slice(name.length + 1).trimStart());
      const event = { event: field('event')[0] ?? 'message', data: field('data').join('\n') };
      if (this.waiting) {
        const waiting = this.waiting;
        this.waiting = null;
        waiting(event);
      } else {
        this.events.push(event);
      }
    }
  }

  /** The next event; rejects when the stream ends first or nothing comes within `timeoutMs`. */
  next(timeoutMs = 10_000): Promise<SseEvent> {
    const queued = this.events.shift();
    if (queued) return Promise.resolve(queued);
    if (this.done) return Promise.reject(new Error('stream ended'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no event')), timeoutMs);
      this.waiting = (event) => {
        clearTimeout(timer);
        if (event) resolve(event);
        else reject(new Error('stream ended'));
      };
    });
  }

  close(): void {
    this.request.destroy();
  }
}
