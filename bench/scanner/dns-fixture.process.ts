/**
 * Child process: the authoritative DNS fixture server for the scanner benchmark, on its own event
 * loop (and, the OS willing, its own core) so answering queries never steals the scanner's time.
 * Reports `{ port, queries }` to the parent over IPC; answers `{ type: 'stats' }` with the query count.
 */
import { startDnsServer } from '@sendwell/testing';
import { buildFixtureWorld } from './fixture-zones.js';

const count = Number(process.env.BENCH_DOMAINS ?? 1000);
const world = buildFixtureWorld(count);
// logQueries off: a log of millions of queries would grow this process, not the scanner's.
const server = await startDnsServer({ records: world.records, logQueries: false });
process.send?.({ type: 'ready', port: server.port, names: Object.keys(world.records).length });
process.on('message', (message: { type: string }) => {
  if (message.type === 'stats') process.send?.({ type: 'stats', queries: server.queries });
});
process.on('disconnect', () => {
  void server.close().then(() => process.exit(0));
});
