/**
 * The domains service's notify worker as its own process, for the kill test: wired like main.ts
 * (createDeps, startNotify, onShutdown) without the HTTP server; events go to stdout as JSON lines.
 */
import { createLogger, onShutdown } from '@sendwell/server-kit';
import { createDeps } from '../src/deps.js';
import { loadEnv } from '../src/env.js';

const env = loadEnv();
const logger = createLogger('notify-test-worker', env.LOG_LEVEL);
const deps = createDeps(env, logger);
const worker = await deps.startNotify();
if (!worker) throw new Error('NOTIFY_WORKER is off');
const emit = (event: string, extra: Record<string, unknown> = {}) => process.stdout.write(`${JSON.stringify({ event, pid: process.pid, ...extra })}\n`);
worker.on('active', (job) => emit('active', { jobId: job.id, name: job.name }));
worker.on('completed', (job) => emit('completed', { jobId: job.id, name: job.name }));
emit('ready');
onShutdown(logger, [['notify worker, queues, redis and database', () => deps.close()]]);
