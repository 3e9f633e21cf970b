/**
 * Child process: the authoritative DNS fixture server for the scanner benchmark, on its own event
 * loop (and, the OS willing, its own core) so answering queries never steals the scanner's time.
 * Waits for `{ tlsa }` over IPC (the DANE records' key digests: the parent made the MX certificates),
 * builds the world's records, signs them (the DNSSEC keys are made here) and reports
 * `{ type: 'ready', port, names, trustAnchor }` to the parent; answers `{ type: 'stats' }` with the
 * query count.
 */
import { performance } from 'node:perf_hooks';
import { startDnsServer } from '@sendwell/testing';
import { buildFixtureWorld, signFixtureWorld, type WorldSecrets } from './fixture-zones.js';

const count = Number(process.env.BENCH_DOMAINS ?? 1000);
const secrets = await new Promise<WorldSecrets>((resolve) => process.once('message', (message: WorldSecrets) => resolve(message)));
const started = performance.now();
const world = buildFixtureWorld(count, secrets);
const { records, trustAnchor } = signFixtureWorld(world);
const signatures = Object.values(records).reduce((n, entry) => n + (entry.RRSIG?.length ?? 0), 0);
// logQueries off: a log of millions of queries would grow this process, not the scanner's.
const server = await startDnsServer({ records, logQueries: false });
process.send?.({ type: 'ready', port: server.port, names: Object.keys(records).length, signatures, trustAnchor, buildMs: Math.round(performance.now() - started) });
process.on('message', (message: { type?: string }) => {
  if (message.type === 'stats') process.send?.({ type: 'stats', queries: server.queries });
});
process.on('disconnect', () => {
  void server.close().then(() => process.exit(0));
});
