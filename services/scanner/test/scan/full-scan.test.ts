import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTestCa,
  createTestDb,
  deleteKeys,
  dsPresentation,
  generateZoneKey,
  issueCert,
  issueMarkCertificate,
  mailDomainZone,
  signFixtureZones,
  startDnsServer,
  startHttpsServer,
  startMxServer,
  startTlsServer,
  testRedisUrl,
  uniquePrefix,
  validity,
  type TestDb,
  type TestDnsServer,
  type TestHttpsServer,
  type TestMxServer,
  type TestTlsServer,
} from '@sendwell/testing';
import { checkTypes, sendAlertJobId } from '@sendwell/contracts';
import { ScanResults } from '@sendwell/scan-engine';
import type { Worker } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDeps, type Deps } from '../../src/deps.js';
import { checksRegistry } from '../../src/scan/checks-registry.js';
import { scanJob } from '../../src/scan/scan-job.js';
import { envVars, silentLogger, testEnv } from '../queue/harness.js';
import { waitUntil } from '../queue/wait.js';
import { factory } from './factory.js';

/**
 * The whole pipeline with the real check modules: fixture DNS zones on a real DNS server, a real TLS
 * server with generated certificates, the worker, and the database. Block lists are fixture zones
 * that list nothing, so no query leaves the machine.
 */

const LOGO =
  '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" viewBox="0 0 512 512"><title>Healthy</title><rect width="512" height="512" fill="#15803d"/></svg>\n';
const spkiSha256 = (pem: string) => createHash('sha256').update(new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' })).digest('hex');

let testDb: TestDb;
let trustAnchor: string;
let dns: TestDnsServer;
let tls: TestTlsServer;
let mx: TestMxServer;
let https: TestHttpsServer;
let deps: Deps;
let f: ReturnType<typeof factory>;
const prefix = uniquePrefix('full-scan');
const workers: Worker[] = [];

beforeAll(async () => {
  testDb = await createTestDb();
  f = factory(testDb.db);
  const ca = await createTestCa();
  const good = await issueCert(ca, { hostnames: ['healthy.test', 'www.healthy.test'] });
  const expiring = await issueCert(ca, { hostnames: ['expiring.test', 'www.expiring.test'], ...validity.expiringInDays(10) });
  tls = await startTlsServer({ ...good, sni: { 'expiring.test': expiring, 'www.expiring.test': expiring } });
  // healthy.test receives mail the way the best-run domains do: STARTTLS with a trusted certificate on
  // its MX, an enforced MTA-STS policy covering it, TLS reports, and a PTR that resolves back.
  const [mxCert, policyCert, brandCert, markCert] = await Promise.all([
    issueCert(ca, { hostnames: ['mx.healthy.test'] }),
    issueCert(ca, { hostnames: ['mta-sts.healthy.test'] }),
    issueCert(ca, { hostnames: ['bimi.healthy.test'] }),
    // Its BIMI logo, with a Verified Mark Certificate embedding it.
    issueMarkCertificate(ca, { domains: ['healthy.test'], svg: LOGO }),
  ]);
  mx = await startMxServer({ certificate: mxCert, name: 'mx.healthy.test' });
  https = await startHttpsServer({
    hosts: {
      'mta-sts.healthy.test': {
        certificate: policyCert,
        paths: { '/.well-known/mta-sts.txt': { contentType: 'text/plain', body: 'version: STSv1\r\nmode: enforce\r\nmx: mx.healthy.test\r\nmax_age: 604800\r\n' } },
      },
      'bimi.healthy.test': {
        certificate: brandCert,
        paths: {
          '/logo.svg': { contentType: 'image/svg+xml', body: LOGO },
          '/vmc.pem': { contentType: 'application/x-pem-file', body: `${markCert.cert}${ca.cert}` },
        },
      },
    },
  });

  // healthy.test is signed, under a signed test root and TLD: its DNSSEC chain validates from the
  // test root's DS, given as the scanner's trust anchor; the other domains are unsigned delegations.
  const [rootKey, tldKey, zoneKey] = [generateZoneKey('.'), generateZoneKey('test'), generateZoneKey('healthy.test')];
  trustAnchor = dsPresentation(rootKey);
  const zones = [{ name: '.', keys: [rootKey] }, { name: 'test', keys: [tldKey] }, { name: 'healthy.test', keys: [zoneKey] }, { name: 'expiring.test' }, { name: 'broken.test' }];
  dns = await startDnsServer({
    records: signFixtureZones({
      '.': { SOA: { mname: 'a.root.test', rname: 'nstld.root.test', serial: 2026 }, NS: ['a.root.test'] },
      test: { SOA: { mname: 'ns.test', rname: 'hostmaster.test', serial: 7 }, NS: ['ns.test'] },
      ...mailDomainZone('healthy.test', { mailAddress: '127.0.0.1' }),
      '_mta-sts.healthy.test': { TXT: ['v=STSv1; id=20261126'] },
      'mta-sts.healthy.test': { A: ['127.0.0.1'] },
      'bimi.healthy.test': { A: ['127.0.0.1'] },
      'default._bimi.healthy.test': { TXT: ['v=BIMI1; l=https://bimi.healthy.test/logo.svg; a=https://bimi.healthy.test/vmc.pem'] },
      '_smtp._tls.healthy.test': { TXT: ['v=TLSRPTv1; rua=mailto:tls-reports@healthy.test'] },
      '1.0.0.127.in-addr.arpa': { PTR: ['mx.healthy.test'] },
      // DANE-EE: the MX host's key, pinned (3 1 1).
      '_25._tcp.mx.healthy.test': { TLSA: [{ usage: 3, selector: 1, matchingType: 1, data: spkiSha256(mxCert.cert) }] },
      ...mailDomainZone('expiring.test'),
      ...mailDomainZone('broken.test', { spf: null, dmarc: null }),
    }, zones),
  });

  const caFile = join(mkdtempSync(join(tmpdir(), 'scanner-ca-')), 'ca.pem');
  writeFileSync(caFile, ca.cert);
  deps = createDeps(
    testEnv({
      databaseUrl: testDb.url,
      redisUrl: testRedisUrl(),
      prefix,
      dns,
      extra: {
        DNS_TIMEOUT_MS: '1000',
        SCAN_TLS_PORT: String(tls.port),
        SCAN_HTTPS_PORT: String(https.port),
        SCAN_SMTP_PORT: String(mx.port),
        SCAN_TLS_EXTRA_CA_FILE: caFile,
        SCAN_DNSSEC_TRUST_ANCHOR: trustAnchor,
        SCAN_AUTHORITATIVE_DNS_PORT: String(dns.port),
        SCAN_TIMEOUT_MS: '2000',
        DNSBL_IP_ZONES: 'bl.fixture.test',
        DNSBL_DOMAIN_ZONES: 'dbl.fixture.test',
      },
    }),
    silentLogger,
    { checks: checksRegistry, collectDefaultMetrics: false },
  );
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.close()));
});

afterAll(async () => {
  await deps.close();
  await Promise.all([dns.close(), tls.close(), mx.close(), https.close()]);
  await deleteKeys(prefix);
  await testDb.close();
});

describe('a full scan with the real checks', () => {
  it('finds a well-configured domain healthy, with a high score and its DNS snapshot', async () => {
    const outcome = await deps.scan('healthy.test', []);
    const statuses = Object.fromEntries(Object.values(outcome.checks).map((c) => [c.type, c.status]));
    expect(statuses).toEqual({
      spf: 'valid',
      dkim: 'valid',
      dmarc: 'valid',
      blacklist: 'valid',
      ssl_certificate: 'valid',
      dns_performance: expect.stringMatching(/success|warning/),
      mta_sts: 'valid',
      tls_rpt: 'valid',
      smtp: 'valid',
      reverse_dns: 'valid',
      dane: 'valid',
      bimi: 'valid',
      dnssec: 'valid',
    });
    expect(outcome.profile).toBe('mail');
    // The MX host was asked over STARTTLS, and the policy fetched over HTTPS, for this domain.
    expect(mx.ehloNames).toContain('scanner.sendwell.invalid');
    expect(outcome.checks.smtp.details.hosts).toEqual([expect.objectContaining({ exchange: 'mx.healthy.test', ip: '127.0.0.1', starttls: true, tlsVersion: 'TLSv1.3' })]);
    expect(outcome.checks.mta_sts.details.mxCoverage).toEqual([expect.objectContaining({ exchange: 'mx.healthy.test', covered: true })]);
    // The TLSA records validate in the signed zone (the DNSSEC check's verdict, shared): DANE has nothing to add.
    expect(outcome.checks.dane.details.findings).toEqual([]);
    expect(outcome.checks.dane.details.hosts).toEqual([expect.objectContaining({ exchange: 'mx.healthy.test', matched: true, dnssec: 'secure' })]);
    expect(outcome.status).toBe(statuses.dns_performance === 'success' ? 'healthy' : 'warning');
    expect(outcome.score.score).toBeGreaterThanOrEqual(90);
    expect(outcome.snapshot).toMatchObject({
      a: ['127.0.0.1'],
      mx: [{ exchange: 'mx.healthy.test', priority: 10, ips: ['127.0.0.1'] }],
      ns: ['ns1.healthy.test', 'ns2.healthy.test'],
      spfRecord: 'v=spf1 ip4:127.0.0.1 -all',
      dmarcRecord: 'v=DMARC1; p=reject; rua=mailto:dmarc@healthy.test',
      mtaStsRecord: 'v=STSv1; id=20261126',
      tlsRptRecord: 'v=TLSRPTv1; rua=mailto:tls-reports@healthy.test',
      bimiRecord: 'v=BIMI1; l=https://bimi.healthy.test/logo.svg; a=https://bimi.healthy.test/vmc.pem',
      profile: 'mail',
      failed: [],
    });
    expect(outcome.dnsQueries).toBeGreaterThan(5);
  });

  it('finds a domain without SPF and DMARC critical, and scores it lower', async () => {
    const outcome = await deps.scan('broken.test', []);
    expect(outcome.checks.spf.status).toBe('missing');
    expect(outcome.checks.dmarc.status).toBe('missing');
    expect(outcome.status).toBe('critical');
    expect(outcome.score.score).toBeLessThan(70);
    expect(outcome.score.factors.weightedScores.emailAuthentication).toBeLessThanOrEqual(13);
  });

  it('writes the scan through the worker and raises ssl_expiring for a certificate 10 days from expiry (standard plan)', async () => {
    const domain = await f.domain({ plan: 'standard', name: 'expiring.test' });
    const scanId = await f.scan(domain.id);
    const job = scanJob(scanId, domain.id, 'manual');
    await deps.queues.scan.add(job.name, job.data, job.opts);
    workers.push(deps.startWorker());
    await waitUntil(async () => (await testDb.db.selectFrom('scans').select('status').where('id', '=', scanId).executeTakeFirstOrThrow()).status === 'completed', {
      what: 'scan completed',
    });

    const checks = await new ScanResults(testDb.db).checksOfScan(scanId);
    expect(checks).toHaveLength(checkTypes.length);
    expect(checks.find((c) => c.type === 'ssl_certificate')?.status).toBe('warning');
    const alerts = await testDb.db.selectFrom('domainAlerts').select(['type', 'severity', 'details']).where('domainId', '=', domain.id).execute();
    expect(alerts).toEqual([{ type: 'ssl_expiring', severity: 'high', details: expect.objectContaining({ threshold: 14 }) }]);
    // Handed to the notify queue's fan-out once committed, one job per alert event.
    const alert = await testDb.db.selectFrom('domainAlerts').select(['id', 'isSent']).where('domainId', '=', domain.id).executeTakeFirstOrThrow();
    expect(alert.isSent).toBe(false);
    const fanOut = await deps.queues.notify.getJob(sendAlertJobId(alert.id, 'raised'));
    expect(fanOut?.data).toEqual({ alertId: alert.id, event: 'raised' });
    expect(await f.counts(domain.id)).toMatchObject({ scanCount: 1, reputation: 1 });
  });

  it('prints the scan as JSON and as a table from the CLI, and evaluates SPF lines', async () => {
    const { spawn } = await import('node:child_process');
    const env = { PATH: process.env.PATH ?? '', ...envVars(deps.env), SCAN_TLS_PORT: String(tls.port), SCAN_HTTPS_PORT: String(https.port), SCAN_SMTP_PORT: String(mx.port), SCAN_TLS_EXTRA_CA_FILE: deps.env.SCAN_TLS_EXTRA_CA_FILE!, SCAN_AUTHORITATIVE_DNS_PORT: String(dns.port), DNSBL_IP_ZONES: 'bl.fixture.test', DNSBL_DOMAIN_ZONES: 'dbl.fixture.test' };
    const cwd = new URL('../..', import.meta.url).pathname;
    // Asynchronous: the fixture DNS and TLS servers live in this process and must keep answering.
    const run = (args: string[], input?: string) =>
      new Promise<{ status: number | null; stdout: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd, env, stdio: ['pipe', 'pipe', 'inherit'] });
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.on('exit', (status) => resolve({ status, stdout }));
        child.stdin.end(input ?? '');
      });

    const json = await run(['broken.test', '--json']);
    expect(json.status).toBe(0);
    const parsed = JSON.parse(json.stdout) as { profile: string; status: string; score: number; checks: Record<string, { status: string }> };
    expect(parsed.profile).toBe('mail');
    expect(Object.keys(parsed.checks).sort()).toEqual([...checkTypes].sort());
    expect(parsed.status).toBe('critical');
    expect(parsed.checks.spf?.status).toBe('missing');
    expect(parsed.score).toBeGreaterThan(0);

    const table = await run(['healthy.test']);
    expect(table.stdout).toMatch(/^spf\s+valid\s+/m);
    expect(table.stdout).toMatch(/^Scan of healthy\.test \(mail domain\)$/m);
    expect(table.stdout).toMatch(/^score: +\d+\/100/m);

    const lines = [
      { ip: '127.0.0.1', sender: 'someone@healthy.test', helo: 'mx.healthy.test' },
      { ip: '198.51.100.1', sender: 'someone@healthy.test', helo: 'mx.healthy.test' },
      { ip: '198.51.100.1', sender: 'someone@broken.test', helo: 'x.broken.test' },
    ];
    const spf = await run(['--spf-eval'], `${lines.map((l) => JSON.stringify(l)).join('\n')}\nnot json\n`);
    const results = spf.stdout.trim().split('\n').map((l) => JSON.parse(l) as { result: string; explanation: string });
    expect(results.map((r) => r.result)).toEqual(['pass', 'fail', 'none', 'none']);
    expect(results[3]!.explanation).toMatch(/invalid input line/);
    expect(spf.status).toBe(1);

    expect((await run(['--bogus'])).status).toBe(2);
  }, 60_000);
});
