import { createDb } from '@sendwell/db';
import { createLogger, loadEnvOrExit } from '@sendwell/server-kit';
import { loadEnv } from './env.js';
import { integrationKeys } from './notify/notify.env.js';
import { resealSecrets } from './notify/reseal-secrets.js';
import { SecretBox } from './notify/secret-box.js';

/**
 * `pnpm --filter @sendwell/domains secrets:reseal`: re-seals every integration config and webhook
 * secret under the newest of INTEGRATIONS_ENCRYPTION_KEYS. Safe to run again and while the service
 * runs. Exits 1 when some value no configured key opens (its row ids are printed, never its value).
 */
const env = loadEnvOrExit(loadEnv);
const logger = createLogger('secrets-reseal', env.LOG_LEVEL);
const keys = integrationKeys(env);
const db = createDb({ connectionString: env.DATABASE_URL, max: 2, applicationName: 'sendwell-secrets-reseal' });
try {
  const { integrations, webhooks } = await resealSecrets(db, new SecretBox(keys));
  logger.info({ keyId: keys[0]!.id, integrations, webhooks }, 'sealed values re-sealed under the newest key');
  if (integrations.unreadable.length + webhooks.unreadable.length > 0) {
    logger.error('some sealed values open with no configured key: keep the old keys until these rows are fixed or removed');
    process.exitCode = 1;
  }
} finally {
  await db.destroy();
}
