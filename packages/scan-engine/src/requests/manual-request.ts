import { sql, type Executor } from '@sendwell/db';

/** What a claim of the manual-scan cooldown found. */
export type CooldownClaim =
  | { kind: 'claimed'; claimedAt: Date }
  | { kind: 'missing' }
  | { kind: 'paused' }
  | { kind: 'cooling'; retryAfterMs: number };

/** `domains.last_manual_scan_at`: at most one manual scan per domain per cooldown, on every plan. */
export class ManualScanCooldown {
  constructor(private readonly db: Executor) {}

  /**
   * The cooldown, checked and recorded in one statement: the row lock makes a second racing call
   * wait, then re-read `last_manual_scan_at` as the first one set it, and fail.
   */
  async claim(userId: number, domainId: number, cooldownMs: number): Promise<CooldownClaim> {
    const cooldown = sql`make_interval(secs => ${cooldownMs / 1000})`;
    const claimed = await this.db
      .updateTable('domains')
      .set({ lastManualScanAt: sql<Date>`date_trunc('milliseconds', now())` }) // ms, so a JS Date can name it again
      .where('id', '=', domainId)
      .where('userId', '=', userId)
      .where('isDeleted', '=', false)
      .where('scanPaused', '=', false)
      .where((eb) => eb.or([eb('lastManualScanAt', 'is', null), eb('lastManualScanAt', '<=', sql<Date>`now() - ${cooldown}`)]))
      .returning(['lastManualScanAt'])
      .executeTakeFirst();
    if (claimed?.lastManualScanAt) return { kind: 'claimed', claimedAt: claimed.lastManualScanAt };

    const row = await this.db
      .selectFrom('domains')
      .select(['scanPaused', sql<number>`ceil(extract(epoch from (last_manual_scan_at + ${cooldown} - now())) * 1000)::int`.as('retryAfterMs')])
      .where('id', '=', domainId)
      .where('userId', '=', userId)
      .where('isDeleted', '=', false)
      .executeTakeFirst();
    if (!row) return { kind: 'missing' };
    if (row.scanPaused) return { kind: 'paused' };
    return { kind: 'cooling', retryAfterMs: Math.max(1_000, row.retryAfterMs ?? cooldownMs) };
  }

  /** Gives a claim back when its scan could not be queued, unless another claim replaced it meanwhile. */
  async release(domainId: number, claimedAt: Date): Promise<void> {
    await this.db.updateTable('domains').set({ lastManualScanAt: null }).where('id', '=', domainId).where('lastManualScanAt', '=', claimedAt).execute();
  }
}
