/**
 * An open-loop load at a fixed rate, requests spaced evenly in time over many keep-alive connections.
 *
 * Why not autocannon's `overallRate`: it gives each of N connections a budget of rate/N requests per
 * second, refilled by one `setInterval(1000)` per connection, and the N intervals start together; so
 * at 200 req/s over 200 connections all 200 requests of a second leave in the same millisecond, and
 * the last of the burst waits for the 199 before it (on 2 cores, ~200 × the CPU per request). Its
 * coordinated-omission correction then takes 1/rate for milliseconds (1 ms instead of 1,000 ms) and
 * adds a made-up sample per millisecond of every slow answer. Its p99 at a fixed rate is the burst's
 * drain time, not the server's; this one sends request i at start + i/rate on connection i mod N.
 */
import { performance } from 'node:perf_hooks';
import { Client } from 'undici';

export interface PacedFigures {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
  kbPerResponse: number;
  /** How late the generator itself sent, p99 (ms): a busy load generator shows here, not in p99. */
  sendLagP99: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : 0;
}

export async function pacedLoad(opts: { url: string; headers: Record<string, string>; rate: number; connections: number; durationS: number }): Promise<PacedFigures> {
  const url = new URL(opts.url);
  const clients = Array.from({ length: opts.connections }, () => new Client(url.origin, { pipelining: 1 }));
  const path = `${url.pathname}${url.search}`;
  const total = Math.round(opts.rate * opts.durationS);
  const intervalMs = 1000 / opts.rate;
  const latencies: number[] = [];
  const lags: number[] = [];
  let errors = 0;
  let non2xx = 0;
  let bytes = 0;
  const inFlight: Array<Promise<void>> = [];

  // Latency counts from the scheduled time, so a late send (or a connection still busy with its
  // previous request) is charged to the answer, as an open-loop client would see it.
  const send = async (i: number, scheduled: number): Promise<void> => {
    lags.push(performance.now() - scheduled);
    try {
      const res = await clients[i % clients.length]!.request({ method: 'GET', path, headers: opts.headers });
      for await (const chunk of res.body) bytes += (chunk as Buffer).length;
      if (res.statusCode < 200 || res.statusCode >= 300) non2xx++;
      else latencies.push(performance.now() - scheduled);
    } catch {
      errors++;
    }
  };

  // Every connection open before the clock starts (a connect is not what is measured), then a pause
  // so the servers are idle again when the paced requests begin.
  await Promise.all(clients.map((c) => c.request({ method: 'GET', path, headers: opts.headers }).then((res) => res.body.dump())));
  await new Promise((r) => setTimeout(r, 500));

  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const scheduled = start + i * intervalMs;
    const wait = scheduled - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    inFlight.push(send(i, scheduled));
  }
  await Promise.all(inFlight);
  const elapsedS = (performance.now() - start) / 1000;
  await Promise.all(clients.map((c) => c.close()));
  latencies.sort((a, b) => a - b);
  lags.sort((a, b) => a - b);
  return {
    requests: total,
    rps: latencies.length / elapsedS,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? 0,
    kbPerResponse: total ? bytes / total / 1024 : 0,
    errors,
    non2xx,
    sendLagP99: percentile(lags, 99),
  };
}
