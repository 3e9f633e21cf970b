import { ALERT_NOT_FOUND, features, type Alert, type ListAlertsQuery } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { forbidden, notFound, type AuthUser } from '@sendwell/server-kit';
import { toAlertDto } from './alert.mapper.js';
import { AlertStore } from '@sendwell/scan-engine';
import { AlertRepository } from './alert.repository.js';

export const ALERTS_PLAN_REQUIRED = 'Domain alerts are available on the Advanced plan. Please upgrade to see them.';

/**
 * The notification bell's domain alerts (part 1 §2): advanced plan only, as the plan rules say
 * (`features.alertsInBell`). Marking read is part of the same feature, so it is gated alike.
 */
export class AlertService {
  private readonly alerts: AlertRepository;
  /** Marking read is a write of `domain_alerts`, which the scan engine owns. */
  private readonly store: AlertStore;

  constructor(db: Database) {
    this.alerts = new AlertRepository(db);
    this.store = new AlertStore(db);
  }

  private gate(user: Pick<AuthUser, 'planType'>): void {
    if (!features.alertsInBell(user.planType)) throw forbidden(ALERTS_PLAN_REQUIRED, { requiresUpgrade: true });
  }

  async list(user: Pick<AuthUser, 'id' | 'planType'>, query: ListAlertsQuery): Promise<Alert[]> {
    this.gate(user);
    return (await this.alerts.listForUser(user.id, query)).map(toAlertDto);
  }

  /** Another user's alert answers 404 exactly like a missing one. */
  async markRead(user: Pick<AuthUser, 'id' | 'planType'>, id: number): Promise<Alert> {
    this.gate(user);
    if (!(await this.store.markRead(user.id, id))) throw notFound(ALERT_NOT_FOUND);
    const row = await this.alerts.findForUser(user.id, id);
    if (!row) throw notFound(ALERT_NOT_FOUND);
    return toAlertDto(row);
  }

  async markAllRead(user: Pick<AuthUser, 'id' | 'planType'>): Promise<number> {
    this.gate(user);
    return this.store.markAllRead(user.id);
  }
}
