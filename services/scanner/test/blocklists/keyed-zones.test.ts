import { checkDetailsByType } from '@sendwell/contracts';
import { createLogger } from '@sendwell/server-kit';
import { createTestDb, deleteKeys, mailDomainZone, startDnsServer, testRedisUrl, uniquePrefix, type TestDb, type TestDnsServer } from '@sendwell/testing';
import { ScanResults } from '@sendwell/scan-engine';
import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { checksRegistry } from '../../src/scan/checks-registry.js';
import { scanJob } from '../../src/scan/scan-job.js';
import { testEnv } from '../queue/harness.js';
import { waitUntil } from '../queue/wait.js';
import { factory } from '../scan/factory.js';

/**
 * Block lists reached with a key (Spamhaus DQS: `<key>.zen.dq.spamhaus.net`) on the fixture DNS
 * server: a whole scan through the worker, with the registry's probes, lists the domain's mail server
 * and the domain itself there, and the key is in the DNS questions and nowhere else: not in the
 * stored checks (which the domains service answers with and reports are built from), not in the
 * alerts (which the mails are written from), not in /internal/blocklists (the gateway's
 * server statistics), not in the log.
 */

const KEY = 's3cr3tkey0123456789';
const DOMAIN = 'keyed.test';
// The mail server's address is ZEN's own test point, which every ZEN lists.
const MX_IP = '127.0.0.2';
const prefix = uniquePrefix('keyed-blocklists');
const logs: string[] = [];
let testDb: TestDb;
let dns: TestDnsServer;
let deps: Deps;
let worker: Worker | undefined;

beforeAll(async () => {
  testDb = await createTestDb();
  dns = await startDnsServer({
    records: {
      ...mailDomainZone(DOMAIN, { mailAddress: MX_IP }),
      // Spamhaus ZEN through DQS: its test point, which is the domain's mail server, listed (SBL).
      [`2.0.0.127.${KEY}.zen.dq.spamhaus.net`]: { A: ['127.0.0.2'], TXT: ['https://check.spamhaus.org/sbl/query/SBL2'] },
      // The DBL through DQS: its documented test domain, and the scanned domain listed.
      [`dbltest.com.${KEY}.dbl.dq.spamhaus.net`]: { A: ['127.0.1.2'] },
      [`${DOMAIN}.${KEY}.dbl.dq.spamhaus.net`]: { A: ['127.0.1.2'] },
      // A list the scanner does not know, given its key as key@zone: healthy at first, silent later.
      [`2.0.0.127.${KEY}.lapsed.dq.example`]: { A: ['127.0.0.2'] },
    },
  });
  deps = createDeps(
    testEnv({
      databaseUrl: testDb.url,
      redisUrl: testRedisUrl(),
      prefix,
      dns,
      extra: {
        DNS_TIMEOUT_MS: '300',
        DNSBL_IP_ZONES: `${KEY}.zen.dq.spamhaus.net, ${KEY}@lapsed.dq.example`,
        DNSBL_DOMAIN_ZONES: `${KEY}.dbl.dq.spamhaus.net`,
      },
    }),
    createLogger('scanner', 'debug', { write: (line: string) => void logs.push(line) }),
    { checks: checksRegistry, collectDefaultMetrics: false },
  );
});

afterAll(async () => {
  await worker?.close();
  await deps.close();
  await dns.close();
  await deleteKeys(prefix);
  await testDb.close();
});

describe('a block list reached with a key', () => {
  it('asks with the key, and shows, stores, alerts and logs the list only by its name and redacted zone', async () => {
    // The registry probes every list; then the unknown list goes silent and the next probe sets it aside (and logs it).
    await deps.blocklists.probeAll();
    dns.setBehaviour(`${KEY}.lapsed.dq.example`, 'timeout');
    await deps.blocklists.probeAll();

    const f = factory(testDb.db);
    const domain = await f.domain({ plan: 'standard', name: DOMAIN });
    const scanId = await f.scan(domain.id);
    const job = scanJob(scanId, domain.id, 'manual');
    await deps.queues.scan.add(job.name, job.data, job.opts);
    worker = deps.startWorker();
    await waitUntil(async () => (await testDb.db.selectFrom('scans').select('status').where('id', '=', scanId).executeTakeFirstOrThrow()).status === 'completed', {
      what: 'scan completed',
    });

    // The key went into the DNS questions, so the lists were really asked with it.
    const asked = dns.queryLog.map((q) => q.name.toLowerCase());
    expect(asked).toContain(`2.0.0.127.${KEY}.zen.dq.spamhaus.net`);
    expect(asked).toContain(`${DOMAIN}.${KEY}.dbl.dq.spamhaus.net`);

    // The stored checks: the blacklist row names the lists, listed where they list.
    const checks = await new ScanResults(testDb.db).checksOfScan(scanId);
    const blacklist = checks.find((c) => c.type === 'blacklist');
    expect(blacklist?.status).toBe('error');
    const details = checkDetailsByType.blacklist.parse(blacklist?.details);
    expect(details.sites?.map(({ name, zone, status }) => ({ name, zone, status }))).toEqual([
      { name: 'Spamhaus ZEN (DQS)', zone: '<redacted>.zen.dq.spamhaus.net', status: 'listed' },
      { name: 'lapsed.dq.example', zone: '<redacted>.lapsed.dq.example', status: 'unknown' },
      { name: 'Spamhaus DBL (DQS)', zone: '<redacted>.dbl.dq.spamhaus.net', status: 'listed' },
    ]);
    expect(details.findings?.filter((x) => x.code === 'BLACKLIST_LIST_DEGRADED').map((x) => x['zone'])).toEqual(['<redacted>.lapsed.dq.example']);
    // Messages name a keyed list by its name alone: its zone would only read "<redacted>".
    expect(details.findings?.find((x) => x.code === 'BLACKLIST_IP_LISTED')?.message).toBe(
      `${MX_IP} (MX mx.${DOMAIN}) is listed on Spamhaus ZEN (DQS) (answer 127.0.0.2): SBL: known spam source or operation — https://check.spamhaus.org/sbl/query/SBL2.`,
    );
    expect(details.findings?.find((x) => x.code === 'BLACKLIST_LIST_DEGRADED')?.message).toMatch(/^lapsed\.dq\.example could not be checked for 2 queries: the list fails its own test points/);
    expect(JSON.stringify(checks)).not.toContain(KEY);

    // The alerts, by list and target: their condition keys use the list's id, which a new key leaves unchanged.
    const alerts = await testDb.db.selectFrom('domainAlerts').select(['type', 'title', 'message', 'details', 'conditionKey']).where('domainId', '=', domain.id).execute();
    const listed = alerts.filter((a) => a.type === 'blacklist_listed');
    expect(listed.map((a) => a.conditionKey).sort()).toEqual([`blacklist:<redacted>.dbl.dq.spamhaus.net:${DOMAIN}`, `blacklist:<redacted>.zen.dq.spamhaus.net:${MX_IP}`]);
    expect(listed.map((a) => a.title).sort()).toEqual([`${MX_IP} (a mail server of ${DOMAIN}) is listed on Spamhaus ZEN (DQS)`, `${DOMAIN} is listed on Spamhaus DBL (DQS)`]);
    expect(JSON.stringify(alerts)).not.toContain(KEY);

    // The registry's answer, which the gateway's server statistics show.
    const app = await buildApp(deps);
    const response = await app.inject({ method: 'GET', url: '/internal/blocklists' });
    await app.close();
    expect(response.statusCode).toBe(200);
    expect((response.json() as Array<{ zone: string; name: string; state: string }>).map(({ zone, name, state }) => ({ zone, name, state }))).toEqual([
      { zone: '<redacted>.zen.dq.spamhaus.net', name: 'Spamhaus ZEN (DQS)', state: 'healthy' },
      { zone: '<redacted>.lapsed.dq.example', name: 'lapsed.dq.example', state: 'degraded' },
      { zone: '<redacted>.dbl.dq.spamhaus.net', name: 'Spamhaus DBL (DQS)', state: 'healthy' },
    ]);
    expect(response.body).not.toContain(KEY);

    // The log: the list's change of state is there, by its redacted zone, and the key is not.
    expect(logs.some((line) => line.includes('block list degraded') && line.includes('<redacted>.lapsed.dq.example'))).toBe(true);
    expect(logs.join('')).not.toContain(KEY);
  }, 60_000);
});
