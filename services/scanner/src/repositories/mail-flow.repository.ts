import { sql, type Executor } from '@sendwell/db';
import { MAX_REPORTED_SELECTORS, type ReportedSelector } from '../checks/dkim/selectors.js';

/** How far back the reports' DKIM selectors are read: long enough to see weekly or monthly senders. */
export const REPORTED_SELECTOR_DAYS = 30;

/** Reads what the intake stored from the domain's DMARC reports; the scanner never writes there. */
export class MailFlowRepository {
  constructor(private readonly db: Executor) {}

  /**
   * The selectors receivers saw on the domain's mail (or a subdomain's: relaxed alignment passes it)
   * over the last 30 days, most messages first. Day-ranged, so only the last month's partitions are
   * read; with none created yet the empty parent answers no rows.
   */
  async reportedDkimSelectors(domainId: number, domain: string, now: Date = new Date()): Promise<ReportedSelector[]> {
    const since = new Date(now.getTime() - REPORTED_SELECTOR_DAYS * 86_400_000).toISOString().slice(0, 10);
    const name = domain.toLowerCase();
    const rows = await this.db
      .selectFrom('dmarcRecordsDaily')
      .select([sql<string>`lower(dkim_selector)`.as('selector'), sql<string>`lower(dkim_domain)`.as('domain')])
      .where('domainId', '=', domainId)
      .where('day', '>=', sql<Date>`${since}::date`)
      .where('dkimSelector', '<>', '')
      // Suffix compared with right(), not LIKE: '_' is a LIKE wildcard and legal in DNS names.
      .where(sql<boolean>`(lower(dkim_domain) = ${name} or right(lower(dkim_domain), ${name.length + 1}) = ${`.${name}`})`)
      .groupBy([sql`lower(dkim_selector)`, sql`lower(dkim_domain)`])
      .orderBy(sql`sum(messages)`, 'desc')
      .orderBy(sql`lower(dkim_selector)`)
      .limit(MAX_REPORTED_SELECTORS)
      .execute();
    return rows;
  }
}
