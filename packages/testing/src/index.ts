export { createTestDb, type TestDb } from './postgres.js';
export { testRedisUrl, uniquePrefix, deleteKeys } from './redis.js';
export { startRedisServer, type TestRedisServer } from './redis-server.js';
export { startSmtpServer, type TestSmtpServer, type ReceivedMail } from './smtp.js';
export { sendSmtp, type SmtpDelivery } from './smtp-client.js';
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
export { blocklistFixtureZones, FIXTURE_BLOCKLISTS, mailDomainZone, type MailDomainZoneOptions } from './fixture-zones.js';
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
export { freePort } from './ports.js';
export { startServiceHarness, type HarnessApp, type ServiceHarness, type ServiceHarnessSpec } from './service-harness.js';
export { startMailbox, type MailSummary } from './mailbox.js';
export { startServiceProcess, startStack, STACK_ADMIN_EMAIL, STACK_INTAKE_DOMAIN, type ServiceProcess, type Stack, type StackOptions, type ServiceName } from './stack.js';
export { startStripeStandIn, type StripeStandIn, type StripeStandInOptions } from './stripe/server.js';
export { STRIPE_JS_STAND_IN } from './stripe/stripe-js.js';
export { startHttpsReceiver, type HttpsReceiver, type ReceivedRequest, type Responder } from './https-receiver.js';
export { startMxServer, type TestMxServer, type MxServerOptions } from './mx-server.js';
export { startHttpsServer, type TestHttpsServer, type HttpsServerOptions, type HttpsFixtureHost, type HttpsFixtureResponse, type HttpsRequestLogEntry } from './https-server.js';
export { issueMarkCertificate, type MarkCertOptions } from './bimi.js';
export { generateZoneKey, keyTrapKey, keyTrapSignatures, signFixtureZones, signRrset, dsRecord, dsPresentation, keyTag, canonicalName, rrsigTime, DNSSEC_ALGORITHMS, KSK_FLAGS, ZONE_KEY_FLAGS, type ZoneSigningKey, type ZoneKeyOptions, type KeyTrapKeyOptions, type FixtureZone, type SignOptions, type DnsFixtureDnskey, type DnsFixtureDs, type DnsFixtureRrsig } from './dnssec.js';
export { seededRandom } from './seeded-random.js';
export { summariseScanDays } from './scan-days.js';
