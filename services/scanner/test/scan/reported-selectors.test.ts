import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createTestDb, deleteKeys, startDnsServer, testRedisUrl, uniquePrefix, type TestDb, type TestDnsServer } from '@sendwell/testing';
import { sql } from '@sendwell/db';
import { ScanResults } from '@sendwell/scan-engine';
import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeps, type Deps } from '../../src/deps.js';
import { MailFlowRepository } from '../../src/repositories/mail-flow.repository.js';
import { checksRegistry } from '../../src/scan/checks-registry.js';
import { scanJob } from '../../src/scan/scan-job.js';
import { silentLogger, testEnv } from '../queue/harness.js';
import { waitUntil } from '../queue/wait.js';
import { factory } from './factory.js';

/**
 * What the DMARC reports add to a scan, against real Postgres rows in dmarc_records_daily and the
 * fixture DNS server: the selectors receivers saw signing are probed (a key no common selector would
 * find), and the DMARC advice names the domain's own report address.
 */

const DOMAIN = 'reported.test';
const DAY = 86_400_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const rsaKey = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'der', type: 'spki' }).toString('base64');

let testDb: TestDb;
let dns: TestDnsServer;
let deps: Deps;
const prefix = uniquePrefix('reported-selectors');
const partitions = new Set<string>();

/** The month's partition, as the intake creates it ahead of need. */
async function ensurePartition(day: Date): Promise<void> {
  const from = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1));
  const to = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 1));
  const name = `dmarc_records_daily_${isoDay(from).slice(0, 7).replace('-', '_')}`;
  if (partitions.has(name)) return;
  partitions.add(name);
  await sql.raw(`create table if not exists ${name} partition of dmarc_records_daily for values from ('${isoDay(from)}') to ('${isoDay(to)}')`).execute(testDb.db);
}

async function reportRow(domainId: number, row: { day: Date; dkimDomain: string; selector: string; messages: number }): Promise<void> {
  await ensurePartition(row.day);
  await sql`insert into dmarc_records_daily (day, domain_id, key, source_ip, header_from, envelope_from, spf_domain, spf_result, dkim_domain, dkim_selector, dkim_result, spf_aligned, dkim_aligned, disposition, override, messages)
    values (${isoDay(row.day)}::date, ${domainId}, ${randomBytes(20)}, '192.0.2.25', ${DOMAIN}, ${DOMAIN}, ${DOMAIN}, 'pass', ${row.dkimDomain}, ${row.selector}, 'pass', true, true, 'none', '', ${row.messages})`.execute(testDb.db);
}

beforeAll(async () => {
  testDb = await createTestDb();
  const key = rsaKey();
  dns = await startDnsServer({
    records: {
      [DOMAIN]: { A: ['192.0.2.1'], MX: [{ priority: 10, exchange: `mx.${DOMAIN}` }], TXT: ['v=spf1 ip4:192.0.2.25 -all'] },
      [`mx.${DOMAIN}`]: { A: ['192.0.2.25'] },
      // Keys only at selectors no list holds: one for the domain, one for a subdomain that signs its newsletters.
      [`q3xz2026._domainkey.${DOMAIN}`]: { TXT: [`v=DKIM1; k=rsa; p=${key}`] },
      [`news2026._domainkey.mail.${DOMAIN}`]: { TXT: [`v=DKIM1; k=rsa; p=${key}`] },
    },
  });
  deps = createDeps(
    testEnv({
      databaseUrl: testDb.url,
      redisUrl: testRedisUrl(),
      prefix,
      dns,
      extra: { SCAN_AUTHORITATIVE_DNS_PORT: String(dns.port), DNSBL_IP_ZONES: 'bl.fixture.test', DNSBL_DOMAIN_ZONES: 'dbl.fixture.test' },
    }),
    silentLogger,
    { checks: checksRegistry, collectDefaultMetrics: false },
  );
}, 60_000);

afterAll(async () => {
  await deps.close();
  await dns.close();
  await deleteKeys(prefix);
  await testDb.close();
});

describe('DKIM selectors from the DMARC reports', () => {
  it('reads none, without failing, while dmarc_records_daily has no partition yet', async () => {
    const domain = await factory(testDb.db).domain({ name: 'nopartition.test' });
    expect(await new MailFlowRepository(testDb.db).reportedDkimSelectors(domain.id, domain.name)).toEqual([]);
  });

  it("reads the domain's and its subdomains' selectors of the last 30 days, most messages first", async () => {
    const f = factory(testDb.db);
    const domain = await f.domain({ name: DOMAIN });
    const other = await f.domain({ name: 'other.test' });
    const now = new Date();
    await reportRow(domain.id, { day: now, dkimDomain: DOMAIN, selector: 'Q3XZ2026', messages: 40 });
    await reportRow(domain.id, { day: new Date(now.getTime() - 3 * DAY), dkimDomain: DOMAIN, selector: 'q3xz2026', messages: 30 });
    await reportRow(domain.id, { day: now, dkimDomain: `mail.${DOMAIN}`, selector: 'news2026', messages: 50 });
    // Out: another signer (a forwarder's own signature), a day past the window, no selector, another domain's rows.
    await reportRow(domain.id, { day: now, dkimDomain: 'forwarder.example', selector: 'fwd', messages: 500 });
    await reportRow(domain.id, { day: new Date(now.getTime() - 40 * DAY), dkimDomain: DOMAIN, selector: 'old2025', messages: 900 });
    await reportRow(domain.id, { day: now, dkimDomain: DOMAIN, selector: '', messages: 70 });
    await reportRow(other.id, { day: now, dkimDomain: DOMAIN, selector: 'notyours', messages: 70 });
    // A domain whose name ends like this one's is no subdomain of it.
    await reportRow(domain.id, { day: now, dkimDomain: `not${DOMAIN}`, selector: 'lookalike', messages: 70 });

    expect(await new MailFlowRepository(testDb.db).reportedDkimSelectors(domain.id, DOMAIN, now)).toEqual([
      { selector: 'q3xz2026', domain: DOMAIN },
      { selector: 'news2026', domain: `mail.${DOMAIN}` },
    ]);
  });

  it('probes them in the scan job: the DKIM check finds the keys at both, and DMARC advice names the report address', async () => {
    const { id: domainId, reportToken } = await testDb.db.selectFrom('domains').select(['id', 'reportToken']).where('name', '=', DOMAIN).executeTakeFirstOrThrow();
    const { id: scanId } = await testDb.db.insertInto('scans').values({ domainId, trigger: 'manual' }).returning(['id']).executeTakeFirstOrThrow();
    const job = scanJob(scanId, domainId, 'manual');
    await deps.queues.scan.add(job.name, job.data, job.opts);
    const worker: Worker = deps.startWorker();
    try {
      await waitUntil(async () => (await testDb.db.selectFrom('scans').select('status').where('id', '=', scanId).executeTakeFirstOrThrow()).status === 'completed', {
        what: 'scan completed',
      });
    } finally {
      await worker.close();
    }
    const rows = await new ScanResults(testDb.db).checksOfScan(scanId);
    const dkim = rows.find((r) => r.type === 'dkim')!;
    const details = dkim.details as { records: Array<{ selector: string; source: string; signingDomain?: string; usable: boolean }>; selectorsChecked: string[] };
    expect(dkim.status).toBe('valid');
    expect(details.records).toEqual([
      expect.objectContaining({ selector: 'q3xz2026', source: 'report', usable: true }),
      expect.objectContaining({ selector: 'news2026', source: 'report', signingDomain: `mail.${DOMAIN}`, usable: true }),
    ]);
    expect(details.selectorsChecked.slice(0, 2)).toEqual(['q3xz2026', `news2026 (mail.${DOMAIN})`]);
    expect(dns.queryLog.map((q) => q.name)).not.toContain(`fwd._domainkey.${DOMAIN}`);

    const dmarc = rows.find((r) => r.type === 'dmarc')!;
    expect(dmarc.status).toBe('missing');
    expect(dmarc.recommendation).toContain(`rua=mailto:${reportToken}@reports.sendwell.localhost`);
  });
});
