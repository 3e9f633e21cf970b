import { dockerAvailable } from './docker.js';
import { testEnv } from './env.js';

export interface TestServices {
  /** A Postgres server URL (any database name; test databases are created beside it). */
  postgresUrl: string;
  redisUrl: string;
  stop(): Promise<void>;
}

const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
const LOCAL_REDIS = 'redis://127.0.0.1:6379';

/**
 * Where tests find Postgres and Redis: the URLs from the environment; else containers when a
 * Docker engine answers; else the local defaults (this machine and CI run both natively).
 */
export async function resolveTestServices(): Promise<TestServices> {
  const fromEnv = { postgres: testEnv.databaseUrl, redis: testEnv.redisUrl };
  if (fromEnv.postgres && fromEnv.redis) {
    return { postgresUrl: fromEnv.postgres, redisUrl: fromEnv.redis, stop: async () => undefined };
  }
  if (await dockerAvailable()) {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const { RedisContainer } = await import('@testcontainers/redis');
    const [pg, redis] = await Promise.all([
      fromEnv.postgres ? null : new PostgreSqlContainer('postgres:16-alpine').withUsername('postgres').withPassword('postgres').start(),
      fromEnv.redis ? null : new RedisContainer('redis:7-alpine').start(),
    ]);
    return {
      postgresUrl: fromEnv.postgres ?? pg!.getConnectionUri(),
      redisUrl: fromEnv.redis ?? redis!.getConnectionUrl(),
      stop: async () => {
        await Promise.all([pg?.stop(), redis?.stop()]);
      },
    };
  }
  return {
    postgresUrl: fromEnv.postgres ?? LOCAL_POSTGRES,
    redisUrl: fromEnv.redis ?? LOCAL_REDIS,
    stop: async () => undefined,
  };
}
