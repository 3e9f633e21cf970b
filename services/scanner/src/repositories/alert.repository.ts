import { AlertType } from '@sendwell/contracts';
import { sql, type Executor } from '@sendwell/db';
import type { NewAlert } from '../alerts/alert-rules.js';

export class AlertRepository {
  constructor(private readonly db: Executor) {}

  /** Thresholds already raised for the certificate that expires at `expiresAt` (a renewed certificate starts afresh). */
  async sslThresholdsRaised(domainId: number, expiresAt: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom('domainAlerts')
      .select(sql<number>`(details->>'threshold')::int`.as('threshold'))
      .where('domainId', '=', domainId)
      .where('type', '=', AlertType.SslExpiring)
      .where(sql<string>`details->>'expiresAt'`, '=', expiresAt)
      .execute();
    return rows.map((r) => r.threshold);
  }

  async insert(domainId: number, userId: number, alerts: Array<NewAlert & { checkId: number | null }>, createdAt: Date): Promise<number[]> {
    if (alerts.length === 0) return [];
    const rows = await this.db
      .insertInto('domainAlerts')
      .values(
        alerts.map((a) => ({
          domainId,
          userId,
          type: a.type,
          severity: a.severity,
          title: a.title,
          message: a.message,
          details: JSON.stringify(a.details),
          checkId: a.checkId,
          createdAt,
        })),
      )
      .returning(['id'])
      .execute();
    return rows.map((r) => r.id);
  }
}
