import type { DeliveryStatus, IntegrationService } from '@sendwell/contracts';
import type { Executor } from '@sendwell/db';

export interface StoredIntegration {
  service: IntegrationService;
  /** The config sealed by SecretBox (`config.sealed`). */
  sealed: string;
  isEnabled: boolean;
  lastStatus: DeliveryStatus | null;
  lastError: string | null;
  lastDeliveryAt: Date | null;
}

/** `integrations`: one row per user and service; `config` holds `{ sealed }` and nothing in clear. */
export class IntegrationRepository {
  constructor(private readonly db: Executor) {}

  private base() {
    return this.db.selectFrom('integrations').select(['service', 'config', 'isEnabled', 'lastStatus', 'lastError', 'lastDeliveryAt']);
  }

  private static toStored(row: { service: string; config: unknown; isEnabled: boolean; lastStatus: string | null; lastError: string | null; lastDeliveryAt: Date | null }): StoredIntegration {
    return {
      service: row.service as IntegrationService,
      sealed: String((row.config as { sealed?: unknown } | null)?.sealed ?? ''),
      isEnabled: row.isEnabled,
      lastStatus: row.lastStatus as DeliveryStatus | null,
      lastError: row.lastError,
      lastDeliveryAt: row.lastDeliveryAt,
    };
  }

  async list(userId: number): Promise<StoredIntegration[]> {
    return (await this.base().where('userId', '=', userId).execute()).map(IntegrationRepository.toStored);
  }

  async find(userId: number, service: IntegrationService): Promise<StoredIntegration | undefined> {
    const row = await this.base().where('userId', '=', userId).where('service', '=', service).executeTakeFirst();
    return row ? IntegrationRepository.toStored(row) : undefined;
  }

  /** Creates or replaces; a replaced config starts a fresh delivery log. */
  async save(userId: number, service: IntegrationService, sealed: string, now: Date): Promise<void> {
    const config = JSON.stringify({ sealed });
    await this.db
      .insertInto('integrations')
      .values({ userId, service, config, isEnabled: true, createdAt: now, updatedAt: now })
      .onConflict((oc) => oc.columns(['userId', 'service']).doUpdateSet({ config, isEnabled: true, updatedAt: now, lastStatus: null, lastError: null, lastDeliveryAt: null }))
      .execute();
  }

  async remove(userId: number, service: IntegrationService): Promise<boolean> {
    const result = await this.db.deleteFrom('integrations').where('userId', '=', userId).where('service', '=', service).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async recordDelivery(userId: number, service: string, status: DeliveryStatus, error: string | null, at: Date): Promise<void> {
    await this.db.updateTable('integrations').set({ lastStatus: status, lastError: error, lastDeliveryAt: at }).where('userId', '=', userId).where('service', '=', service).execute();
  }
}
