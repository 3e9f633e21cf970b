import type { CheckStatus, CheckType, DnsSnapshot } from '@sendwell/contracts';
import { sql, type Executor, type StoredCheckDetails } from '@sendwell/db';
import { resultIdentity } from './result-identity.js';
import { applyPatch, diffJson, sameJson, type Patch } from './result-patch.js';
import { SNAPSHOT_PATCH, type CheckContent, type ScanPatches, type StoredScan } from './scan-results.js';

/** Plain JSON, as it will read back from a jsonb column (undefined members gone, key order aside). */
const asStored = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * Compares a new result with the stored one it may repeat: the same identity (timings and
 * timestamps aside) means the stored result stands and the scan keeps only a patch. A patch that
 * would not rebuild the result exactly is never kept: the result is stored anew instead.
 */
function reuse<T extends object>(stored: T | undefined, actual: T): { patch: Patch | null } | null {
  if (!stored || resultIdentity(stored) !== resultIdentity(actual)) return null;
  const patch = diffJson(stored, actual);
  return sameJson(applyPatch(stored, patch), actual) ? { patch } : null;
}

/** One check's result to store (the recorder's RecordedCheck is one). */
export interface CheckToStore {
  type: CheckType;
  status: CheckStatus;
  value: string | null;
  message: string | null;
  recommendation: string | null;
  details: object;
}

export interface ScanResultsToStore {
  scanId: string;
  /** The scan's month partition (`YYYY-MM-01`), where its new results go too; read from the scan when not given. */
  storedMonth?: string;
  domainId: number;
  checks: readonly CheckToStore[];
  /** Null only where no snapshot was taken (test fixtures of scans from before snapshots). */
  snapshot: DnsSnapshot | null;
  at: Date;
  /**
   * The domain's previous completed scan as stored: what each new result may repeat, when it is kept
   * in the same month, so that a month's partitions drop whole (a scan never references another month).
   */
  previous: StoredScan | null;
}

/**
 * The write side of the results stored on change: a check's result (or the DNS snapshot) is stored
 * when it differs from the domain's previous one; otherwise the scan references the stored one and
 * keeps what varied (a timing, a timestamp) as its patch. Runs inside the recording transaction.
 */
export class ResultStore {
  constructor(private readonly db: Executor) {}

  /** Stores the scan's results and references; the stored result id of each check type. */
  async store({ scanId, storedMonth: month, domainId, checks, snapshot, at, previous: stored }: ScanResultsToStore): Promise<Map<CheckType, number>> {
    const storedMonth = month ?? (await this.monthOf(scanId));
    const previous = stored?.storedMonth === storedMonth ? stored : null;
    const patches: ScanPatches = {};
    const ids = new Map<CheckType, number>();
    const fresh: Array<{ type: CheckType; content: CheckContent }> = [];
    for (const check of checks) {
      const content = asStored<CheckContent>({ status: check.status, value: check.value, message: check.message, recommendation: check.recommendation, details: check.details as StoredCheckDetails });
      const stored = previous?.checks.find((c) => c.type === check.type);
      const repeat = reuse(stored?.content, content);
      if (stored && repeat) {
        ids.set(check.type, stored.id);
        if (repeat.patch) patches[check.type] = repeat.patch;
      } else fresh.push({ type: check.type, content });
    }
    if (fresh.length > 0) {
      const inserted = await this.db
        .insertInto('checkResults')
        .values(fresh.map(({ type, content }) => ({ domainId, type, ...content, details: JSON.stringify(content.details), createdAt: at, storedMonth: sql<Date>`${storedMonth}::date` })))
        .returning(['id', 'type'])
        .execute();
      for (const row of inserted) ids.set(row.type as CheckType, row.id);
    }

    let snapshotId: number | null = null;
    if (snapshot) {
      const snapshotContent = asStored(snapshot);
      const snapshotRepeat = reuse(previous?.snapshot?.snapshot, snapshotContent);
      if (previous?.snapshot && snapshotRepeat) {
        snapshotId = previous.snapshot.id;
        if (snapshotRepeat.patch) patches[SNAPSHOT_PATCH] = snapshotRepeat.patch;
      } else {
        const row = await this.db
          .insertInto('dnsSnapshots')
          .values({ domainId, snapshot: JSON.stringify(snapshotContent), createdAt: at, storedMonth: sql<Date>`${storedMonth}::date` })
          .returning('id')
          .executeTakeFirstOrThrow();
        snapshotId = row.id;
      }
    }

    await this.db
      .updateTable('scans')
      .set({
        checkResultIds: [...ids.values()],
        dnsSnapshotId: snapshotId,
        resultPatches: Object.keys(patches).length > 0 ? JSON.stringify(patches) : null,
      })
      .where('id', '=', scanId)
      .where(sql<boolean>`stored_month = ${storedMonth}::date`)
      .execute();
    return ids;
  }

  private async monthOf(scanId: string): Promise<string> {
    const row = await this.db.selectFrom('scans').select(sql<string>`stored_month::text`.as('month')).where('id', '=', scanId).executeTakeFirstOrThrow();
    return row.month;
  }
}
