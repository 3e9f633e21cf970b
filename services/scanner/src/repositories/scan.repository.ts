import type { Executor } from '@sendwell/db';

/** Everything a scan job needs to know before it runs the checks. */
export interface ScanTarget {
  scanId: string;
  scanStatus: string;
  domainId: number;
  domainName: string;
  isDeleted: boolean;
  metadata: unknown;
  /** The local part of the domain's report addresses: its DMARC recommendations name `<reportToken>@<INTAKE_DOMAIN>`. */
  reportToken: string;
}

/** What the scanner reads of a scan before running it; every write is the scan engine's. */
export class ScanRepository {
  constructor(private readonly db: Executor) {}

  async findTarget(scanId: string): Promise<ScanTarget | undefined> {
    return this.db
      .selectFrom('scans')
      .innerJoin('domains', 'domains.id', 'scans.domainId')
      .select([
        'scans.id as scanId',
        'scans.status as scanStatus',
        'domains.id as domainId',
        'domains.name as domainName',
        'domains.isDeleted',
        'domains.metadata',
        'domains.reportToken',
      ])
      .where('scans.id', '=', scanId)
      .executeTakeFirst();
  }
}
