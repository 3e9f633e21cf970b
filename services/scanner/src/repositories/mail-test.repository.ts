import type { MailTestAnalysis } from '@sendwell/contracts';
import type { Executor } from '@sendwell/db';

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

  /** Stores the analysis; only a test still 'received' moves to 'done' (a job that ran twice writes once). */
  async complete(id: number, analysis: MailTestAnalysis, at: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('inboxPlacementTests')
      .set({
        status: 'done',
        results: JSON.stringify(analysis),
        score: analysis.score.value,
        fromEmail: analysis.headers.from,
        subject: analysis.headers.subject,
        error: null,
        completedAt: at,
      })
      .where('id', '=', id)
      .where('status', '=', 'received')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** A test whose analysis failed for good, with the reason shown to its user. */
  async markFailed(id: number, error: string, at: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('inboxPlacementTests')
      .set({ status: 'failed', error, completedAt: at })
      .where('id', '=', id)
      .where('status', '=', 'received')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
