/**
 * Child process: the authoritative DNS fixture of `hostile.bench.ts` (hostile-zones.ts), on its own
 * event loop so its work never counts as the scanner's. Builds and signs the world, then reports
 * `{ type: 'ready', port, trustAnchor, domains }`; stops when the parent disconnects.
 */
import { startDnsServer } from '@sendwell/testing';
import { sized } from '../lib/smoke.js';
import { buildHostileWorld } from './hostile-zones.js';

const world = buildHostileWorld(sized('BENCH_HOSTILE_COPIES', 5, 1));
const server = await startDnsServer({ records: world.records, logQueries: false });
process.send?.({ type: 'ready', port: server.port, trustAnchor: world.trustAnchor, domains: world.domains });
process.on('disconnect', () => {
  void server.close().then(() => process.exit(0));
});
