/**
 * The service behind the gateway in the benchmark: a real server-kit app (request ids, logger,
 * error handler, zod compilers) answering a small JSON document on an auth-owned path, so the
 * same URL works directly and through the gateway's route table.
 */
import { createApp, createLogger } from '@sendwell/server-kit';

const port = Number(process.env.PORT ?? 0);
const logger = createLogger('bench-upstream', 'warn');
const app = createApp({ logger });

const profile = {
  id: 1,
  email: 'bench@example.com',
  name: 'Bench User',
  plan: 'pro',
  emailVerified: true,
  preferences: { currency: 'USD', timezone: 'UTC', alertEmail: true },
};

app.get('/api/user/profile', async () => profile);
app.get('/health', async () => ({ status: 'ok', service: 'bench-upstream' }));

await app.listen({ host: '127.0.0.1', port });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
