import type { Database } from '@sendwell/db';

/** A domain as the intake needs it: whose it is, under what plan, and whether failure reports are kept. */
export interface ReportDomain {
  id: number;
  name: string;
  userId: number;
  planType: string;
  reportToken: string;
  failureReports: boolean;
}

/** Reads the domains (owned by the domains service) that report addresses were issued for. */
export class ReportDomainRepository {
  constructor(private readonly db: Database) {}

  private select() {
    return this.db
      .selectFrom('domains as d')
      .innerJoin('users as u', 'u.id', 'd.userId')
      .leftJoin('mailFlowSettings as s', 's.domainId', 'd.id')
      .select(['d.id', 'd.name', 'd.userId', 'u.planType', 'd.reportToken'])
      .select((eb) => eb.fn.coalesce('s.failureReports', eb.val(false)).as('failureReports'))
      .where('d.deletedAt', 'is', null)
      .where('d.isDeleted', '=', false);
  }

  /** The active domain a token was issued for, or undefined (a deleted domain's addresses stop working). */
  async findByToken(token: string): Promise<ReportDomain | undefined> {
    return this.select().where('d.reportToken', '=', token).executeTakeFirst();
  }

  /** The active domain with that id (a domain deleted after its message arrived reads as absent). */
  async findActive(id: number): Promise<ReportDomain | undefined> {
    return this.select().where('d.id', '=', id).executeTakeFirst();
  }

  /** The user's active domain with that id, or undefined (another user's domain reads as absent). */
  async findOwned(userId: number, id: number): Promise<ReportDomain | undefined> {
    return this.select().where('d.id', '=', id).where('d.userId', '=', userId).executeTakeFirst();
  }
}
