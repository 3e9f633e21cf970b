export { createTestDb, type TestDb } from './postgres.js';
export { testRedisUrl, uniquePrefix, deleteKeys } from './redis.js';
export { startSmtpServer, type TestSmtpServer, type ReceivedMail } from './smtp.js';
export { resolveTestServices, type TestServices } from './services.js';
export { dockerAvailable } from './docker.js';
export {
  startDnsServer,
  type TestDnsServer,
  type DnsServerOptions,
  type DnsFixtureRecords,
  type DnsFixtureType,
  type DnsFixtureMx,
  type DnsFixtureSoa,
  type DnsBehaviour,
  type DnsQueryLogEntry,
} from './dns-server.js';
export {
  createTestCa,
  issueCert,
  selfSignedCert,
  startTlsServer,
  validity,
  type TestCa,
  type TestCertificate,
  type CertOptions,
  type CaOptions,
  type TlsServerOptions,
  type TestTlsServer,
} from './tls.js';
export { arrivals, type Arrivals } from './arrivals.js';
