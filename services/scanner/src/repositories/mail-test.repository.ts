import type { MailTestAnalysis } from '@sendwell/contracts';
import { sql, type Executor } from '@sendwell/db';

/** The scanner's side of `inbox_placement_tests`: reading a received test and writing its outcome. */
export class MailTestRepository {
  constructor(private readonly db: Executor) {}

  async findReceived(id: number) {
    return this.db.selectFrom('inboxPlacementTests').select(['id', 'status', 'rawGz', 'session']).where('id', '=', id).executeTakeFirst();
  }

  /** Counts an analysis started; false when the test is no longer waiting for one. */
  async startAnalysis(id: number): Promise<boolean> {
    const row = await this.db
      .updateTable('inboxPlacementTests')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('status', '=', 'received')
      .returning(['attempts'])
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Stores the analysis and drops the raw message; only a test still 'received' moves to 'done' (a job
   * that ran twice writes once).
   * The test is filed under its user's domain the From domain belongs to (that domain, or the longest
   * one it is a subdomain of; deleted domains not), so the domain's sender requirements can read it.
   * Null when the test is no longer waiting for its analysis.
   */
  async complete(id: number, analysis: MailTestAnalysis, at: Date): Promise<{ domainId: number | null } | null> {
    const from = analysis.headers.fromDomain;
    const row = await this.db
      .updateTable('inboxPlacementTests')
      .set({
        status: 'done',
        results: JSON.stringify(analysis),
        score: analysis.score.value,
        fromEmail: analysis.headers.from,
        subject: analysis.headers.subject,
        error: null,
        completedAt: at,
        // The message itself (which may hold its recipients' and readers' data) is not kept once judged.
        rawGz: null,
        domainId: from === null ? null : sql<number | null>`(
          select d.id from domains d
          where d.user_id = inbox_placement_tests.user_id and not d.is_deleted
            and (d.name = ${from} or right(${from}, length(d.name) + 1) = '.' || d.name)
          order by length(d.name) desc, d.id
          limit 1
        )`,
      })
      .where('id', '=', id)
      .where('status', '=', 'received')
      .returning(['domainId'])
      .executeTakeFirst();
    return row ?? null;
  }

  /** A test whose analysis failed for good, with the reason shown to its user; the raw message goes too. */
  async markFailed(id: number, error: string, at: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('inboxPlacementTests')
      .set({ status: 'failed', error, completedAt: at, rawGz: null })
      .where('id', '=', id)
      .where('status', '=', 'received')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
