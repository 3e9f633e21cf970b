export { createTestDb, type TestDb } from './postgres.js';
export { testRedisUrl, uniquePrefix, deleteKeys } from './redis.js';
export { startSmtpServer, type TestSmtpServer, type ReceivedMail } from './smtp.js';
export { resolveTestServices, type TestServices } from './services.js';
export { dockerAvailable } from './docker.js';
