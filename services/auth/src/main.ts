import { runService } from '@sendwell/server-kit';
import { buildApp } from './app.js';
import { createDeps } from './deps.js';
import { loadEnv } from './env.js';

await runService({ name: 'auth', loadEnv, createDeps, buildApp, depsCloseLabel: 'mail and database' });
