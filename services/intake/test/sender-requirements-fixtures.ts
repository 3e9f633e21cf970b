import { randomBytes } from 'node:crypto';
import type { CheckStatus, MailTestAnalysis } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { ResultStore } from '@sendwell/scan-engine';
import { ensureMonthPartitions } from '../src/storage/partitions.js';
import { analysisFixture } from './mail-tests/analysis.js';

/** Rows and analyses the sender requirements tests judge from, as the scanner and the intake store them. */

const DAY_MS = 86_400_000;
export const dayBefore = (now: Date, days: number): string => new Date(now.getTime() - days * DAY_MS).toISOString().slice(0, 10);

/** A test message meeting every requirement it can show. */
export function goodAnalysis(): MailTestAnalysis {
  const a = analysisFixture();
  a.connection.tls = { used: true, protocol: 'TLSv1.3', cipher: 'TLS_AES_256_GCM_SHA384' };
  a.authentication.dkim = [
    { domain: 'sender.example', selector: 's1', algorithm: 'rsa-sha256', keyBits: 2048, bodyLength: null, signedHeaders: ['from', 'date'], result: 'pass', reason: null, aligned: true },
  ];
  a.authentication.dmarc.dkimAligned = true;
  a.headers.listUnsubscribe = { mailto: null, https: 'https://sender.example/u/1', oneClick: true };
  return a;
}

export interface ScanChecks {
  spf?: { status: CheckStatus; record: string | null };
  dkim?: { status: CheckStatus; selectors: string[] };
  dmarc?: { status: CheckStatus; record: string | null; policy: string | null };
}

export const GOOD_CHECKS: ScanChecks = {
  spf: { status: 'valid', record: 'v=spf1 include:_spf.google.com -all' },
  dkim: { status: 'valid', selectors: ['google'] },
  dmarc: { status: 'warning', record: 'v=DMARC1; p=none', policy: 'none' },
};

/** A completed scan with its SPF, DKIM and DMARC checks; `createdAt` orders scans. */
export async function insertScan(db: Database, domainId: number, checks: ScanChecks, createdAt: Date): Promise<{ id: string; completedAt: Date }> {
  const scan = await db
    .insertInto('scans')
    .values({ domainId, trigger: 'manual', status: 'completed', createdAt, completedAt: createdAt })
    .returning(['id', 'completedAt'])
    .executeTakeFirstOrThrow();
  const rows = [
    checks.spf && { type: 'spf' as const, status: checks.spf.status, value: checks.spf.record, details: { record: checks.spf.record, findings: [] } },
    checks.dkim && {
      type: 'dkim' as const,
      status: checks.dkim.status,
      value: checks.dkim.selectors.map((s) => `${s}: rsa 2048`).join('; ') || null,
      details: { records: checks.dkim.selectors.map((selector) => ({ selector, record: 'v=DKIM1; k=rsa; p=MIIB', usable: true, revoked: false })), findings: [] },
    },
    checks.dmarc && { type: 'dmarc' as const, status: checks.dmarc.status, value: checks.dmarc.record, details: { record: checks.dmarc.record, policy: checks.dmarc.policy, source: 'domain', findings: [] } },
  ].filter((r) => r !== undefined);
  await new ResultStore(db).store({
    scanId: scan.id,
    domainId,
    checks: rows.map((r) => ({ ...r, message: null, recommendation: null })),
    snapshot: null,
    at: createdAt,
    previous: null,
  });
  return { id: scan.id, completedAt: scan.completedAt ?? createdAt };
}

export interface RecordRow {
  ip: string;
  messages: number;
  spfAligned?: boolean;
  dkimAligned?: boolean;
  spfResult?: string;
  dkimResult?: string;
  override?: string;
}

/** Aggregate records of one day as the ingest stores them (the month's partition is made first). */
export async function insertRecords(db: Database, domainId: number, day: string, rows: RecordRow[]): Promise<void> {
  await ensureMonthPartitions(db, [day]);
  await db
    .insertInto('dmarcRecordsDaily')
    .values(
      rows.map((r) => ({
        day: new Date(`${day}T00:00:00Z`),
        domainId,
        key: randomBytes(20),
        sourceIp: r.ip,
        headerFrom: 'example.test',
        envelopeFrom: 'example.test',
        spfDomain: 'example.test',
        spfResult: r.spfResult ?? (r.spfAligned === false ? 'fail' : 'pass'),
        dkimDomain: 'example.test',
        dkimSelector: 's1',
        dkimResult: r.dkimResult ?? (r.dkimAligned === false ? 'fail' : 'pass'),
        spfAligned: r.spfAligned ?? true,
        dkimAligned: r.dkimAligned ?? true,
        disposition: 'none',
        override: r.override ?? '',
        messages: r.messages,
      })),
    )
    .execute();
}

/** What the namer writes for an address: looked up, with its confirmed host or none. */
export async function namedSource(db: Database, ip: string, host: string | null, serviceId: string | null = null): Promise<void> {
  await db
    .insertInto('mailSources')
    .values({ ip, host, serviceId, namedAt: new Date() })
    .onConflict((oc) => oc.column('ip').doUpdateSet({ host, serviceId, namedAt: new Date() }))
    .execute();
}

/** An analysed test message the scanner attributed to the domain. */
export async function insertDoneTest(db: Database, opts: { userId: number; domainId: number | null; receivedAt: Date; analysis: MailTestAnalysis }): Promise<number> {
  const row = await db
    .insertInto('inboxPlacementTests')
    .values({
      userId: opts.userId,
      domainId: opts.domainId,
      testId: randomBytes(12).toString('hex'),
      status: 'done',
      createdAt: new Date(opts.receivedAt.getTime() - 60_000),
      expiresAt: new Date(opts.receivedAt.getTime() + 3_600_000),
      receivedAt: opts.receivedAt,
      completedAt: new Date(opts.receivedAt.getTime() + 5_000),
      fromEmail: 'alice@sender.example',
      subject: 'Hello',
      score: String(opts.analysis.score.value),
      results: JSON.stringify(opts.analysis),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
