import type { Executor } from '@sendwell/db';

/** The `domains` columns a recorded scan writes: status, last scan, count and next due time. */
export class DomainScanRows {
  constructor(private readonly db: Executor) {}

  /** Locks the domain for the scan's writes (so two scans of one domain never raise the same alert twice), with its owner's plan. */
  async lockForScan(domainId: number) {
    return this.db
      .selectFrom('domains')
      .innerJoin('users', 'users.id', 'domains.userId')
      .select(['domains.id', 'domains.name', 'domains.userId', 'domains.isDeleted', 'domains.scanPaused', 'domains.status', 'users.planType'])
      .where('domains.id', '=', domainId)
      .forUpdate('domains')
      .executeTakeFirst();
  }

  async recordScan(domainId: number, values: { status: string; lastScan: Date; nextScanAt: Date | null }): Promise<void> {
    await this.db
      .updateTable('domains')
      .set((eb) => ({
        status: values.status,
        lastScan: values.lastScan,
        scanCount: eb('scanCount', '+', 1),
        nextScanAt: values.nextScanAt,
        updatedAt: values.lastScan,
      }))
      .where('id', '=', domainId)
      .execute();
  }
}
