import { MAIL_TEST_RETENTION_DAYS, MAX_MAIL_FLOW_RETENTION_DAYS, mailFlowRetentionDays, REPORT_SOURCE_RETENTION_DAYS } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { sql } from 'kysely';
import { MailTestRepository } from '../mail-tests/mail-test.repository.js';
import { utcDay } from './daily-rows.js';
import { dropMonthPartitionsBefore, ensureMonthPartitions } from './partitions.js';

const DAY_MS = 86_400_000;
/** Rows per delete statement: short statements, short locks, little WAL at once. */
const DELETE_BATCH = 5_000;
/** Domain ids per statement (an index range each). */
const DOMAIN_CHUNK = 1_000;
/** Partitions created ahead of need: this month and the next two. */
const MONTHS_AHEAD = 2;

export interface PruneResult {
  records: number;
  tlsResults: number;
  failureReports: number;
  reports: number;
  droppedPartitions: string[];
  sources: number;
  messages: number;
  mailTests: number;
}

/** Deletes in batches until a batch comes back short; `batch` deletes at most DELETE_BATCH rows and says how many. */
async function inBatches(batch: () => Promise<bigint | number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = Number(await batch());
    total += deleted;
    if (deleted < DELETE_BATCH) return total;
  }
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < items.length; at += size) out.push(items.slice(at, at + size));
  return out;
}

/** Domains (deleted ones too, still restorable) grouped by their owner's retention; 0 for a plan without mail flow. */
async function domainsByRetention(db: Database): Promise<Map<number, number[]>> {
  const rows = await db.selectFrom('domains as d').innerJoin('users as u', 'u.id', 'd.userId').select(['d.id', 'u.planType']).execute();
  const groups = new Map<number, number[]>();
  for (const row of rows) {
    const days = mailFlowRetentionDays(row.planType);
    groups.set(days, [...(groups.get(days) ?? []), row.id]);
  }
  return groups;
}

/**
 * The daily prune of mail flow (see the migrations): each domain's rows past its owner's plan retention
 * (all of them on a plan without mail flow), whole months of the daily records, TLS results and failure
 * reports past the longest retention of any plan (partitions.ts),
 * report files past theirs, read intake messages past the same, inbox tests past MAIL_TEST_RETENTION_DAYS
 * (raw message and analysis alike), and the next months' partitions.
 */
export async function pruneMailFlow(db: Database, now = new Date()): Promise<PruneResult> {
  const result: PruneResult = { records: 0, tlsResults: 0, failureReports: 0, reports: 0, droppedPartitions: [], sources: 0, messages: 0, mailTests: 0 };
  // Whole months first: their rows need no deleting one by one below.
  result.droppedPartitions = await dropMonthPartitionsBefore(db, utcDay(new Date(now.getTime() - MAX_MAIL_FLOW_RETENTION_DAYS * DAY_MS)));
  for (const [days, domainIds] of await domainsByRetention(db)) {
    // Without mail flow every row goes: a cut-off after any report's day (they start at most 2 days ahead).
    const cutoff = new Date(now.getTime() - days * DAY_MS + (days === 0 ? 7 * DAY_MS : 0));
    const cutoffDay = utcDay(cutoff);
    for (const ids of chunks(domainIds, DOMAIN_CHUNK)) {
      result.records += await inBatches(async () => {
        const r = await sql`delete from dmarc_records_daily where (domain_id, day, key) in (
            select domain_id, day, key from dmarc_records_daily where domain_id = any(${ids}::int[]) and day < ${cutoffDay}::date limit ${DELETE_BATCH})`.execute(db);
        return r.numAffectedRows ?? 0;
      });
      result.tlsResults += await inBatches(async () => {
        // By primary key: a ctid is unique only within one partition.
        const r = await sql`delete from tls_results_daily where (domain_id, day, policy_type, policy_domain, mx_host, result_type) in (
            select domain_id, day, policy_type, policy_domain, mx_host, result_type from tls_results_daily
            where domain_id = any(${ids}::int[]) and day < ${cutoffDay}::date limit ${DELETE_BATCH})`.execute(db);
        return r.numAffectedRows ?? 0;
      });
      result.failureReports += await inBatches(async () => {
        const r = await sql`delete from dmarc_failure_reports where (id, received_at) in (
            select id, received_at from dmarc_failure_reports where domain_id = any(${ids}::int[]) and received_at < ${cutoff} limit ${DELETE_BATCH})`.execute(db);
        return r.numAffectedRows ?? 0;
      });
      // A report past retention would be refused if it came again, so its listing row (and file) goes too.
      result.reports += await inBatches(async () => {
        const r = await sql`delete from mail_reports where id in (
            select id from mail_reports where domain_id = any(${ids}::int[]) and period_end < ${cutoff} limit ${DELETE_BATCH})`.execute(db);
        return r.numAffectedRows ?? 0;
      });
    }
  }

  const sourcesBefore = new Date(now.getTime() - REPORT_SOURCE_RETENTION_DAYS * DAY_MS);
  result.sources = await inBatches(async () => {
    const r = await sql`delete from mail_report_sources where report_id in (
        select report_id from mail_report_sources where created_at < ${sourcesBefore} limit ${DELETE_BATCH})`.execute(db);
    return r.numAffectedRows ?? 0;
  });
  result.messages = await inBatches(async () => {
    const r = await sql`delete from intake_messages where id in (
        select id from intake_messages where state in ('read', 'refused') and received_at < ${sourcesBefore} limit ${DELETE_BATCH})`.execute(db);
    return r.numAffectedRows ?? 0;
  });

  const mailTests = new MailTestRepository(db);
  const testsBefore = new Date(now.getTime() - MAIL_TEST_RETENTION_DAYS * DAY_MS);
  result.mailTests = await inBatches(() => mailTests.deleteCreatedBefore(testsBefore, DELETE_BATCH));

  const months: string[] = [];
  for (let ahead = 0; ahead <= MONTHS_AHEAD; ahead += 1) months.push(utcDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + ahead, 1))));
  await ensureMonthPartitions(db, months);
  return result;
}

