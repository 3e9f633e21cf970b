export { createApp, type App, type CreateAppOptions } from './app.js';
export * from './errors.js';
export * from './env.js';
export { createLogger, type Logger } from './logger.js';
export { authPlugin, requireAuth, AUTH_COOKIE, type AuthContext, type AuthUser, type TokenClaims } from './auth-plugin.js';
export { registerHealth } from './health.js';
export { onShutdown, type ShutdownStep } from './shutdown.js';
export { createRedis, pingRedis, type RedisRole } from './redis.js';
export { createQueues, type Queues } from './queues.js';
