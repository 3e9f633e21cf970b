import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { JobName, readIntakeMessageJobId } from '@sendwell/contracts';
import { testRedisUrl } from '@sendwell/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptMessage } from '../src/intake/accept-message.js';
import { readIntakeMessage, MAX_READ_CLAIMS } from '../src/reading/read-intake-message.js';
import { sweepUnreadIntakeMessages } from '../src/reading/sweep-unread-intake-messages.js';
import { startHarness, TEST_INTAKE_DOMAIN, type Harness } from './fixtures.js';
import { aggregateXml, dayPeriod, daysAgo, manyRecords, manyRecordsTotal } from './fixtures/reports/aggregate.js';
import { reportMessage } from './fixtures/reports/mail.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

async function waitUntil<T>(probe: () => Promise<T>, what: string, timeoutMs = 20_000, everyMs = 50): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

async function newDomain(plan = 'advanced') {
  const user = await h.f.user(plan);
  return h.f.domain({ userId: user.id });
}

function mailWith(domainName: string, reportId: string, records = manyRecords(10)): Buffer {
  const xml = aggregateXml({ domain: domainName, reportId, ...dayPeriod(daysAgo(1)), records });
  return reportMessage([{ type: 'application/gzip', name: `${reportId}.xml.gz`, bytes: gzipSync(xml) }]);
}

const message = (id: number) => h.db.selectFrom('intakeMessages').select(['state', 'outcome', 'attempts']).where('id', '=', String(id)).executeTakeFirstOrThrow();

async function totalMessages(domainId: number): Promise<number> {
  const { rows } = await sql<{ total: string | null }>`select sum(messages)::text as total from dmarc_records_daily where domain_id = ${domainId}`.execute(h.db);
  return Number(rows[0]?.total ?? 0);
}

describe('readIntakeMessage', () => {
  it('reads a stored message into the report tables and marks it read; a second read is a no-op', async () => {
    const domain = await newDomain();
    const id = await h.deps.messages.store({ domainId: domain.id, channel: 'smtp', envelope: {}, contentType: null, raw: mailWith(domain.name, 'once') });
    const first = await readIntakeMessage(h.deps, id, { lastAttempt: false });
    expect(first).toEqual({ state: 'read', outcome: { accepted: [{ kind: 'aggregate', reporter: 'google.com', reportId: 'once', records: 10 }], duplicates: [] } });
    expect(await message(id)).toMatchObject({ state: 'read', attempts: 1 });
    expect(await readIntakeMessage(h.deps, id, { lastAttempt: false })).toEqual({ state: 'skipped' });
    expect(await totalMessages(domain.id)).toBe(manyRecordsTotal(10));
  });

  it('refuses a report it cannot store, with the reason, without retrying', async () => {
    const domain = await newDomain();
    const id = await h.deps.messages.store({ domainId: domain.id, channel: 'smtp', envelope: {}, contentType: null, raw: mailWith('evil.example', 'x') });
    expect(await readIntakeMessage(h.deps, id, { lastAttempt: false })).toMatchObject({ state: 'refused', outcome: { code: 'POLICY_DOMAIN_MISMATCH' } });
    expect(await message(id)).toMatchObject({ state: 'refused', outcome: { code: 'POLICY_DOMAIN_MISMATCH' } });
  });

  it('refuses a message whose domain was deleted', async () => {
    const user = await h.f.user('advanced');
    const domain = await h.f.domain({ userId: user.id, deleted: true });
    const id = await h.deps.messages.store({ domainId: domain.id, channel: 'smtp', envelope: {}, contentType: null, raw: mailWith(domain.name, 'gone') });
    expect(await readIntakeMessage(h.deps, id, { lastAttempt: false })).toMatchObject({ state: 'refused', outcome: { code: 'DOMAIN_GONE' } });
  });

  it('rethrows an unexpected error for a retry, and refuses the message as READ_FAILED on the last attempt', async () => {
    const domain = await newDomain();
    const id = await h.deps.messages.store({ domainId: domain.id, channel: 'smtp', envelope: {}, contentType: null, raw: mailWith(domain.name, 'db-down') });
    // A database failure that is no fault of the report: the table is briefly not there.
    await sql`alter table mail_report_sources rename to mail_report_sources_away`.execute(h.db);
    try {
      await expect(readIntakeMessage(h.deps, id, { lastAttempt: false })).rejects.toThrow(/mail_report_sources/);
      expect(await message(id)).toMatchObject({ state: 'queued', attempts: 1 });
      await expect(readIntakeMessage(h.deps, id, { lastAttempt: true })).rejects.toThrow(/mail_report_sources/);
      expect(await message(id)).toMatchObject({ state: 'refused', attempts: 2, outcome: { code: 'READ_FAILED' } });
    } finally {
      await sql`alter table mail_report_sources_away rename to mail_report_sources`.execute(h.db);
    }
    // The transaction rolled back each time: nothing of the report was kept.
    expect(await totalMessages(domain.id)).toBe(0);
    expect(await h.db.selectFrom('mailReports').select('id').where('domainId', '=', domain.id).execute()).toHaveLength(0);
  });

  it('refuses a message claimed too many times (it keeps killing its worker)', async () => {
    const domain = await newDomain();
    const id = await h.deps.messages.store({ domainId: domain.id, channel: 'smtp', envelope: {}, contentType: null, raw: mailWith(domain.name, 'killer') });
    await h.db.updateTable('intakeMessages').set({ attempts: MAX_READ_CLAIMS }).where('id', '=', String(id)).execute();
    expect(await readIntakeMessage(h.deps, id, { lastAttempt: false })).toMatchObject({ state: 'refused', outcome: { code: 'READ_FAILED' } });
    expect(await totalMessages(domain.id)).toBe(0);
  });
});

describe('the intake worker and the sweep', () => {
  it('reads an accepted message through the queue; the sweep queues a message whose job was lost, once', async () => {
    const worker = await h.deps.startWorker();
    try {
      const domain = await newDomain();
      const id = await acceptMessage(h.deps.messages, h.deps.queues, { domainId: domain.id, channel: 'smtp', envelope: {}, contentType: null, raw: mailWith(domain.name, 'queued') }, () => {});
      await waitUntil(async () => (await message(id)).state === 'read', 'the message read');

      await worker?.pause();
      // Stored, never queued (Redis was down when it arrived), three minutes ago.
      const lost = await h.deps.messages.store({ domainId: domain.id, channel: 'smtp', envelope: {}, contentType: null, raw: mailWith(domain.name, 'lost') });
      await h.db.updateTable('intakeMessages').set({ receivedAt: sql<Date>`now() - interval '3 minutes'` }).where('id', '=', String(lost)).execute();
      expect(await sweepUnreadIntakeMessages(h.deps)).toEqual({ queued: 1 });
      expect(await sweepUnreadIntakeMessages(h.deps)).toEqual({ queued: 0 }); // its job is waiting
      expect(await h.deps.queues.intake.getJob(readIntakeMessageJobId(lost))).toBeTruthy();
      worker?.resume();
      await waitUntil(async () => (await message(lost)).state === 'read', 'the swept message read');
      expect(await totalMessages(domain.id)).toBe(2 * manyRecordsTotal(10));
    } finally {
      await worker?.close();
    }
  });

  it('queues again a message whose job failed for good without reading it', async () => {
    const domain = await newDomain();
    const id = await h.deps.messages.store({ domainId: domain.id, channel: 'smtp', envelope: {}, contentType: null, raw: mailWith(domain.name, 'failed-job') });
    await h.db.updateTable('intakeMessages').set({ receivedAt: sql<Date>`now() - interval '3 minutes'` }).where('id', '=', String(id)).execute();
    const job = await h.deps.queues.add(JobName.ReadIntakeMessage, { messageId: id }, { jobId: readIntakeMessageJobId(id) });
    // As if it had stalled past its limit: failed, holding the id.
    await h.deps.redis.zadd(`${h.prefix}:intake:failed`, Date.now(), job.id ?? '');
    await h.deps.redis.lrem(`${h.prefix}:intake:wait`, 0, job.id ?? '');
    expect(await (await h.deps.queues.intake.getJob(readIntakeMessageJobId(id)))?.getState()).toBe('failed');
    expect(await sweepUnreadIntakeMessages(h.deps)).toEqual({ queued: 1 });
    expect(await (await h.deps.queues.intake.getJob(readIntakeMessageJobId(id)))?.getState()).toBe('waiting');
  });
});

describe('a worker killed mid-parse', () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  });

  function startWorkerProcess(): Promise<ChildProcess> {
    const env = {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: h.testDb.url,
      DATABASE_POOL_MAX: '2',
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: h.prefix,
      INTAKE_DOMAIN: TEST_INTAKE_DOMAIN,
      TEST_LOCK_MS: '5000',
      TEST_STALLED_MS: '1000',
    };
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./process/intake-worker-process.ts', import.meta.url))], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    return new Promise((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`worker process exited (${code}) before it was ready`)));
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (line.includes('"ready"')) resolve(child);
      });
    });
  }

  it('stores the report exactly once, with exact totals, after a second worker picks the job up', { timeout: 90_000 }, async () => {
    const domain = await newDomain();
    const n = 20_000;
    const id = await h.deps.messages.store({ domainId: domain.id, channel: 'smtp', envelope: {}, contentType: null, raw: mailWith(domain.name, 'big', manyRecords(n, 5_000)) });

    const first = await startWorkerProcess();
    await h.deps.queues.add(JobName.ReadIntakeMessage, { messageId: id }, { jobId: readIntakeMessageJobId(id) });
    await waitUntil(async () => (await message(id)).attempts === 1, 'the first worker to claim the message', 30_000, 5);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    // Killed while parsing: nothing stored, the message still unread.
    expect(await message(id)).toMatchObject({ state: 'queued', attempts: 1 });
    expect(await totalMessages(domain.id)).toBe(0);

    await startWorkerProcess();
    await waitUntil(async () => (await message(id)).state !== 'queued', 'the second worker to read the message', 60_000);
    expect(await message(id)).toMatchObject({ state: 'read', attempts: 2, outcome: { accepted: [{ reportId: 'big', records: n }], duplicates: [] } });
    expect(await h.db.selectFrom('mailReports').select('id').where('domainId', '=', domain.id).execute()).toHaveLength(1);
    expect(await totalMessages(domain.id)).toBe(manyRecordsTotal(n));
  });
});
