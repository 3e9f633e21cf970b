import type { CheckStatus, CheckType, DnsSnapshot } from '@sendwell/contracts';
import { sql, type Executor, type StoredCheckDetails } from '@sendwell/db';
import { applyPatch, type Patch } from './result-patch.js';

/** One check as a scan saw it, read back from the results stored on change and the scan's patch. */
export interface ScanCheck {
  /** The stored result's id: the same for every scan that saw this result unchanged (an alert's checkId). */
  id: number;
  scanId: string;
  domainId: number;
  type: CheckType;
  status: CheckStatus;
  value: string | null;
  message: string | null;
  recommendation: string | null;
  details: StoredCheckDetails;
  /** When the scan recorded it (the scan's completion). */
  createdAt: Date;
}

/** A stored check result's content: what the identity and the patches are about. */
export interface CheckContent {
  status: CheckStatus;
  value: string | null;
  message: string | null;
  recommendation: string | null;
  details: StoredCheckDetails;
}

/** Per check type, and `dnsSnapshot` for the snapshot: what the scan saw beyond the stored result. */
export type ScanPatches = Partial<Record<CheckType | 'dnsSnapshot', Patch>>;

/** The key of the snapshot's patch in `scans.result_patches`. */
export const SNAPSHOT_PATCH = 'dnsSnapshot';

/** A stored check result as the store compares with it: its row and its content. */
export interface StoredCheck {
  id: number;
  domainId: number;
  type: CheckType;
  content: CheckContent;
}

/** A scan's references as stored: the basis for reading it back or comparing the next scan with it. */
export interface StoredScan {
  scanId: string;
  domainId: number;
  recordedAt: Date;
  /** The month partition holding the scan and every result it references (`YYYY-MM-01`). */
  storedMonth: string;
  checks: StoredCheck[];
  snapshot: { id: number; snapshot: DnsSnapshot } | null;
  patches: ScanPatches;
}

const contentOf = (row: { status: string; value: string | null; message: string | null; recommendation: string | null; details: string }): CheckContent => ({
  status: row.status as CheckStatus,
  value: row.value,
  message: row.message,
  recommendation: row.recommendation,
  details: JSON.parse(row.details) as StoredCheckDetails,
});

/** The checks a stored scan saw: each stored result with the scan's patch applied. */
export function checksOf(scan: StoredScan): ScanCheck[] {
  return scan.checks.map((stored) => ({
    ...applyPatch(stored.content, scan.patches[stored.type]),
    id: stored.id,
    scanId: scan.scanId,
    domainId: scan.domainId,
    type: stored.type,
    createdAt: scan.recordedAt,
  }));
}

/** The DNS snapshot a stored scan saw, or null. */
export function snapshotOf(scan: StoredScan): DnsSnapshot | null {
  return scan.snapshot ? applyPatch(scan.snapshot.snapshot, scan.patches[SNAPSHOT_PATCH]) : null;
}

/**
 * The read side of the results stored on change: every service reads a scan's checks and snapshot
 * through here, never from the tables, so the storage can change under them.
 */
export class ScanResults {
  constructor(private readonly db: Executor) {}

  /** The scans' stored references and results (two statements, whatever the number of scans). */
  async stored(scanIds: readonly string[], options: { types?: readonly CheckType[]; snapshot?: boolean } = {}): Promise<Map<string, StoredScan>> {
    if (scanIds.length === 0) return new Map();
    // JSON columns are read as text: the camel-case plugin would rename keys inside them (a `_spf`
    // label in details), and the stored bytes are what the results are. The patches are text already.
    const scans = await this.db
      .selectFrom('scans')
      .select(['id', 'domainId', 'completedAt', 'createdAt', 'checkResultIds', 'dnsSnapshotId', 'resultPatches', sql<string>`stored_month::text`.as('storedMonth')])
      .where('id', 'in', [...scanIds])
      .execute();
    const months = [...new Set(scans.map((s) => s.storedMonth))];
    const resultIds = options.types?.length === 0 ? [] : [...new Set(scans.flatMap((s) => s.checkResultIds ?? []))];
    const snapshotIds = options.snapshot === false ? [] : [...new Set(scans.flatMap((s) => (s.dnsSnapshotId === null ? [] : [s.dnsSnapshotId])))];
    const [results, snapshots] = await Promise.all([
      resultIds.length === 0
        ? []
        : this.db
            .selectFrom('checkResults')
            .select(['id', 'domainId', 'type', 'status', 'value', 'message', 'recommendation', sql<string>`details::text`.as('details')])
            .where('id', 'in', resultIds)
            // A scan's results share its month: only those partitions are read.
            .where(sql<boolean>`stored_month = any(${months}::date[])`)
            .$if(options.types !== undefined, (q) => q.where('type', 'in', [...options.types!]))
            .execute(),
      snapshotIds.length === 0
        ? []
        : this.db
            .selectFrom('dnsSnapshots')
            .select(['id', sql<string>`snapshot::text`.as('snapshot')])
            .where('id', 'in', snapshotIds)
            .where(sql<boolean>`stored_month = any(${months}::date[])`)
            .execute(),
    ]);
    const resultById = new Map(results.map((r) => [r.id, { id: r.id, domainId: r.domainId, type: r.type as CheckType, content: contentOf(r) }]));
    const snapshotById = new Map(snapshots.map((s) => [s.id, s]));
    return new Map(
      scans.map((s) => {
        const snapshot = s.dnsSnapshotId === null ? undefined : snapshotById.get(s.dnsSnapshotId);
        const stored: StoredScan = {
          scanId: s.id,
          domainId: s.domainId,
          recordedAt: s.completedAt ?? s.createdAt,
          storedMonth: s.storedMonth,
          checks: (s.checkResultIds ?? []).flatMap((id) => resultById.get(id) ?? []),
          snapshot: snapshot ? { id: snapshot.id, snapshot: JSON.parse(snapshot.snapshot) as DnsSnapshot } : null,
          patches: s.resultPatches === null ? {} : (JSON.parse(s.resultPatches) as ScanPatches),
        };
        return [s.id, stored];
      }),
    );
  }

  /** The checks of each scan (all types, or `types`), keyed by scan id; a scan without results has none. */
  async checksOfScans(scanIds: readonly string[], types?: readonly CheckType[]): Promise<Map<string, ScanCheck[]>> {
    const stored = await this.stored(scanIds, { types, snapshot: false });
    return new Map([...stored].map(([id, scan]) => [id, checksOf(scan)]));
  }

  /** One scan's checks (at most one per type). */
  async checksOfScan(scanId: string, types?: readonly CheckType[]): Promise<ScanCheck[]> {
    return (await this.checksOfScans([scanId], types)).get(scanId) ?? [];
  }

  /** The checks (all types, or `types`) of the domain's latest completed scan (the scans index finds it); [] before one. */
  async checksOfLatestScan(domainId: number, types?: readonly CheckType[]): Promise<ScanCheck[]> {
    const latest = await this.db
      .selectFrom('scans')
      .select('id')
      .where('domainId', '=', domainId)
      .where('status', '=', 'completed')
      .orderBy('createdAt', 'desc')
      .limit(1)
      .executeTakeFirst();
    return latest ? this.checksOfScan(latest.id, types) : [];
  }

  /** Each scan's DNS snapshot (scans without one are left out). */
  async snapshotsOf(scanIds: readonly string[]): Promise<Map<string, DnsSnapshot>> {
    const stored = await this.stored(scanIds, { types: [] });
    const snapshots = new Map<string, DnsSnapshot>();
    for (const [id, scan] of stored) {
      const snapshot = snapshotOf(scan);
      if (snapshot) snapshots.set(id, snapshot);
    }
    return snapshots;
  }

  async snapshotOfScan(scanId: string): Promise<DnsSnapshot | null> {
    return (await this.snapshotsOf([scanId])).get(scanId) ?? null;
  }
}
