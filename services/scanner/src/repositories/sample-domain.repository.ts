import type { Executor } from '@sendwell/db';
import type { CheckResult } from '../checks/types.js';

export class SampleDomainRepository {
  constructor(private readonly db: Executor) {}

  async find(id: number) {
    return this.db.selectFrom('sampleDomains').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
  }

  async lock(id: number) {
    return this.db.selectFrom('sampleDomains').select(['id']).where('id', '=', id).forUpdate().executeTakeFirst();
  }

  /** The sample domain's checks are replaced by this scan's: the quick check shows only the latest. */
  async replaceChecks(id: number, results: CheckResult[], at: Date): Promise<void> {
    await this.db.deleteFrom('sampleDomainChecks').where('sampleDomainId', '=', id).execute();
    await this.db
      .insertInto('sampleDomainChecks')
      .values(
        results.map((r) => ({
          sampleDomainId: id,
          type: r.type,
          status: r.status,
          value: r.value,
          message: r.message,
          details: JSON.stringify(r.details),
          createdAt: at,
        })),
      )
      .execute();
  }

  async recordScan(id: number, status: string, at: Date): Promise<void> {
    await this.db
      .updateTable('sampleDomains')
      .set((eb) => ({ status, lastScan: at, scanCount: eb('scanCount', '+', 1), updatedAt: at }))
      .where('id', '=', id)
      .execute();
  }
}
