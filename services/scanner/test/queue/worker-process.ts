/**
 * A scanner worker as its own process, for the multi-process, kill and shutdown tests. Wired exactly
 * like main.ts (createDeps, startWorker, onShutdown) except for the fixed queue-test checks and no
 * HTTP server; events go to stdout as JSON lines.
 */
import { createLogger, onShutdown } from '@sendwell/server-kit';
import { createDeps } from '../../src/deps.js';
import { loadEnv } from '../../src/env.js';
import { fixedChecksForQueueTests } from './fixed-checks.js';

const env = loadEnv();
const logger = createLogger('scanner-test-worker', env.LOG_LEVEL);
const number = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);

const deps = createDeps(env, logger, {
  checks: fixedChecksForQueueTests(number('TEST_CHECK_DELAY_MS') ?? 0, number('TEST_CHECK_BLOCK_MS') ?? 0),
  collectDefaultMetrics: false,
});
// Lock and stalled-check timings from the SCAN_* settings, as in production.
const worker = deps.startWorker();
const emit = (event: string, extra: Record<string, unknown> = {}) => process.stdout.write(`${JSON.stringify({ event, pid: process.pid, ...extra })}\n`);
const scanIdOf = (data: unknown) => (data as { scanId?: string } | undefined)?.scanId;

worker.on('active', (job) => emit('active', { jobId: job.id, scanId: scanIdOf(job.data) }));
worker.on('completed', (job) => emit('completed', { jobId: job.id, scanId: scanIdOf(job.data) }));
worker.on('failed', (job) => emit('failed', { jobId: job?.id, scanId: scanIdOf(job?.data) }));
worker.on('stalled', (jobId) => emit('stalled', { jobId }));
await worker.waitUntilReady();
emit('ready');

onShutdown(logger, [
  ['scan worker', () => worker.close()],
  ['deps', async () => {
    await deps.close();
    emit('closed');
  }],
]);
