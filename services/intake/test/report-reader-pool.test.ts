import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportDomainRepository, type ReportDomain } from '../src/addresses/report-domain.repository.js';
import { readContent } from '../src/reports/read-report-content.js';
import { ReportRefusal } from '../src/reports/refusal.js';
import { ReportReaderPool } from '../src/reports/report-reader-pool.js';
import { readFile } from '../src/reports/read-file.js';
import type { DailyRecordRow } from '../src/storage/daily-rows.js';
import { ingestReportFile } from '../src/storage/ingest-report-file.js';
import { startHarness, type Harness } from './fixtures.js';
import { aggregateXml, dayPeriod, daysAgo, manyRecords, manyRecordsTotal } from './fixtures/reports/aggregate.js';
import { tlsReportJson } from './fixtures/reports/tls.js';

let h: Harness;
const pool = new ReportReaderPool(2);
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await pool.close();
  await h.close();
});

async function newDomain(): Promise<ReportDomain> {
  const user = await h.f.user('standard');
  const row = await h.f.domain({ userId: user.id });
  const domain = await new ReportDomainRepository(h.db).findActive(row.id);
  if (!domain) throw new Error('no domain');
  return domain;
}

async function refusalOf(run: Promise<unknown>): Promise<ReportRefusal> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ReportRefusal)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

/** The longest a 5 ms timer fired late while `run` was under way: how long the event loop was held. */
/**
 * Event-loop turns taken while `run` is pending: a parse on this thread would allow none until it
 * ended. Counted rather than timed, so a loaded machine changes the number, not the verdict.
 */
async function turnsDuring<T>(run: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  const timer = setInterval(() => {
    turns += 1;
  }, 1);
  try {
    return { result: await run(), turns };
  } finally {
    clearInterval(timer);
  }
}

describe('ReportReaderPool', () => {
  it('answers what readFile answers in process: headers and totals, daily rows as JSON, sources gzip\'d', async () => {
    const xml = Buffer.from(aggregateXml({ domain: 'example.com', ...dayPeriod(daysAgo(1)), records: manyRecords(3) }));
    const tls = gzipSync(tlsReportJson({ reportId: 't1', ...dayPeriod(daysAgo(1)), policies: [{ domain: 'example.com', successful: 10, failures: [{ resultType: 'certificate-expired', count: 2 }] }] }));
    for (const [bytes, type] of [
      [xml, 'application/xml'],
      [tls, 'application/tlsrpt+gzip'],
    ] as const) {
      const fromThread = await pool.read(bytes, type);
      expect(fromThread).toEqual(readFile(bytes, type));
      for (const read of [...fromThread.aggregate, ...fromThread.tls]) expect(Buffer.isBuffer(read.sourceGz)).toBe(true);
      for (const read of fromThread.aggregate) expect([Buffer.isBuffer(read.rowsJson), Buffer.isBuffer(read.sourceIpsJson)]).toEqual([true, true]);
    }
    const [read] = (await pool.read(xml, 'application/xml')).aggregate;
    const [parsed] = readContent(xml, 'application/xml').aggregate;
    expect(read?.report.period.begin).toBeInstanceOf(Date);
    expect(read && 'records' in read.report).toBe(false);
    expect([read?.records, read?.messages]).toEqual([3, manyRecordsTotal(3)]);
    expect(gunzipSync(read!.sourceGz)).toEqual(parsed!.source);
    const rows = JSON.parse(read!.rowsJson.toString()) as DailyRecordRow[];
    expect(rows.map((row) => row.key)).toEqual(rows.map((row) => row.key).sort());
    expect(rows.map((row) => row.messages).reduce((a, b) => a + b)).toBe(manyRecordsTotal(3));
    expect(JSON.parse(read!.sourceIpsJson.toString())).toEqual([...new Set(rows.map((row) => row.sourceIp))].sort());
  });

  it('rethrows a refusal from the thread as a ReportRefusal with its code and message', async () => {
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20));
    const fromThread = await refusalOf(pool.read(bomb, 'application/gzip'));
    const inProcess = await refusalOf(Promise.resolve().then(() => readContent(bomb, 'application/gzip')));
    expect([fromThread.code, fromThread.message]).toEqual(['COMPRESSION_RATIO', inProcess.message]);
    expect((await refusalOf(pool.read(Buffer.from('<feedback><broken'), 'application/xml'))).code).toBe('MALFORMED_XML');
  });

  it('fails a read that runs past its timeout', async () => {
    const hasty = new ReportReaderPool(1, { timeoutMs: 1 });
    try {
      const big = gzipSync(aggregateXml({ domain: 'example.com', ...dayPeriod(daysAgo(1)), records: manyRecords(5_000) }));
      await expect(hasty.read(big, 'application/gzip')).rejects.toThrow('report reader thread took longer than 1 ms');
    } finally {
      await hasty.close();
    }
  });
});

describe('ingestReportFile on the reader threads', () => {
  it('stores a 20,000-record report while the event loop keeps turning', async () => {
    const domain = await newDomain();
    const n = 20_000;
    const gz = gzipSync(aggregateXml({ domain: domain.name, ...dayPeriod(daysAgo(1)), records: manyRecords(n, 1_200) }));
    // Threads started and partitions made first: what is measured is the read and the store.
    await ingestReportFile(h.db, domain, { bytes: Buffer.from(aggregateXml({ domain: domain.name, ...dayPeriod(daysAgo(1)), reportId: 'warm', records: manyRecords(1) })), contentType: 'application/xml', channel: 'upload', messageId: null }, undefined, pool);

    const { result, turns } = await turnsDuring(() => ingestReportFile(h.db, domain, { bytes: gz, contentType: 'application/gzip', channel: 'upload', messageId: null }, undefined, pool));
    expect(result.accepted).toEqual([expect.objectContaining({ records: n })]);
    // The same read on this thread: not one turn of the loop until it is done.
    const { turns: turnsInProcess } = await turnsDuring(async () => readContent(gz, 'application/gzip'));
    expect(turnsInProcess).toBe(0);
    // On the threads the loop keeps turning while the file is read, and through the whole ingest.
    const { turns: turnsReading } = await turnsDuring(() => pool.read(gz, 'application/gzip'));
    expect(turnsReading).toBeGreaterThanOrEqual(5);
    expect(turns).toBeGreaterThanOrEqual(10);
    const sums = await h.db
      .selectFrom('dmarcRecordsDaily')
      .select((eb) => [eb.fn.sum<string>('messages').as('total'), eb.fn.countAll<string>().as('rows')])
      .where('domainId', '=', domain.id)
      .executeTakeFirstOrThrow();
    // The warm-up's one record shares its row with the big report's first.
    expect([Number(sums.total), Number(sums.rows)]).toEqual([manyRecordsTotal(n) + manyRecordsTotal(1), 1_200]);
  }, 60_000);
});
