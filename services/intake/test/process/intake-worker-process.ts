/**
 * The intake worker as its own process, for the kill test: the real handlers on the real queue, with a
 * short lock so that a killed worker's job is found stalled quickly (TEST_LOCK_MS, TEST_STALLED_MS).
 * Events go to stdout as JSON lines.
 */
import { QueueName } from '@sendwell/contracts';
import { createJobWorker, createLogger, createRedis, onShutdown } from '@sendwell/server-kit';
import { createDeps } from '../../src/deps.js';
import { loadEnv } from '../../src/env.js';
import { intakeHandlers } from '../../src/workers/intake.handlers.js';

const env = loadEnv();
const logger = createLogger('intake-test-worker', env.LOG_LEVEL);
const deps = createDeps(env, logger);
const connection = createRedis(env.REDIS_URL, 'worker');
const worker = createJobWorker({
  queue: QueueName.Intake,
  connection,
  prefix: env.QUEUE_PREFIX,
  concurrency: 1,
  handlers: intakeHandlers(deps),
  logger,
  lockDuration: Number(process.env.TEST_LOCK_MS ?? 5_000),
  stalledInterval: Number(process.env.TEST_STALLED_MS ?? 1_000),
});
await worker.waitUntilReady();
const emit = (event: string, extra: Record<string, unknown> = {}) => process.stdout.write(`${JSON.stringify({ event, pid: process.pid, ...extra })}\n`);
worker.on('active', (job) => emit('active', { jobId: job.id, name: job.name }));
worker.on('completed', (job) => emit('completed', { jobId: job.id, name: job.name }));
emit('ready');
onShutdown(logger, [
  ['intake worker', () => worker.close()],
  ['queues, redis and database', async () => {
    connection.disconnect();
    await deps.close();
  }],
]);
