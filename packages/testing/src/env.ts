/** The settings the test kit reads: where Postgres, Redis and a Docker engine are, when given. */
export const testEnv = {
  databaseUrl: process.env.DATABASE_URL,
  redisUrl: process.env.REDIS_URL,
  dockerHost: process.env.DOCKER_HOST,
};
