/** What clients do during the drills, and what they see: answers by class, and failed connections. */

export class ClientStats {
  requests = 0;
  status5xx = 0;
  /** No answer at all: refused or reset connections, timeouts (the gateway itself down). */
  connectionErrors = 0;
  lastFailureAt: number | null = null;
  /** Failures by status ("502", "503", "no answer"), to tell a service down from a refusal. */
  readonly failures: Record<string, number> = {};

  record(status: number | null): void {
    this.requests++;
    if (status !== null && status < 500) return;
    if (status === null) this.connectionErrors++;
    else this.status5xx++;
    const key = status === null ? 'no answer' : String(status);
    this.failures[key] = (this.failures[key] ?? 0) + 1;
    this.lastFailureAt = Date.now();
  }
}

export interface Answer {
  status: number | null;
  body: unknown;
}

/** One call through the gateway, as a client makes it; never throws. */
export async function call(base: string, method: string, path: string, token: string | null, stats?: ClientStats, body?: unknown): Promise<Answer> {
  let answer: Answer;
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    answer = { status: res.status, body: text ? safeJson(text) : null };
  } catch {
    answer = { status: null, body: null };
  }
  stats?.record(answer.status);
  return answer;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `loops` clients reading their account and domains back to back until stopped. */
export function readLoad(base: string, token: string, stats: ClientStats, loops = 4): { stop(): Promise<void> } {
  let stopped = false;
  const paths = ['/api/domains', '/api/user'];
  const running = Array.from({ length: loops }, async (_, i) => {
    for (let n = i; !stopped; n++) {
      await call(base, 'GET', paths[n % paths.length]!, token, stats);
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  return {
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}

/**
 * Scan Now on each domain, `perSecond` requests a second (so requests are still arriving when the
 * fault hits). Returns the domains whose scan was accepted (202); refusals count in `stats`.
 */
export async function requestScans(base: string, token: string, domainIds: readonly number[], perSecond: number, stats: ClientStats): Promise<number[]> {
  const started = Date.now();
  const answers = await Promise.all(
    domainIds.map(async (id, i) => {
      await new Promise((r) => setTimeout(r, started + (i * 1000) / perSecond - Date.now()));
      return { id, answer: await call(base, 'POST', `/api/domains/${id}/scan`, token, stats) };
    }),
  );
  return answers.filter((a) => a.answer.status === 202).map((a) => a.id);
}
