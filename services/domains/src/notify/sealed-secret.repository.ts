import type { IntegrationService } from '@sendwell/contracts';
import type { Executor } from '@sendwell/db';
import { sql } from '@sendwell/db';

/** One sealed value at rest and what identifies its row and binding. */
export interface SealedIntegrationConfig {
  id: number;
  userId: number;
  service: IntegrationService;
  sealed: string;
}

export interface SealedWebhookSecret {
  id: number;
  userId: number;
  sealed: string;
}

/**
 * Every sealed value at rest, read in id order a batch at a time and replaced only where it is still
 * the value read (a config saved meanwhile is already sealed afresh and is left as it is): the
 * `secrets:reseal` command's reads and writes.
 */
export class SealedSecretRepository {
  constructor(private readonly db: Executor) {}

  async integrationConfigsAfter(afterId: number, limit: number): Promise<SealedIntegrationConfig[]> {
    const rows = await this.db
      .selectFrom('integrations')
      .select(['id', 'userId', 'service', sql<string>`config->>'sealed'`.as('sealed')])
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ ...r, service: r.service as IntegrationService, sealed: r.sealed ?? '' }));
  }

  async replaceIntegrationConfig(id: number, from: string, to: string): Promise<boolean> {
    const result = await this.db
      .updateTable('integrations')
      .set({ config: JSON.stringify({ sealed: to }) })
      .where('id', '=', id)
      .where(sql<string>`config->>'sealed'`, '=', from)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async webhookSecretsAfter(afterId: number, limit: number): Promise<SealedWebhookSecret[]> {
    return this.db.selectFrom('webhookEndpoints').select(['id', 'userId', 'sealedSecret as sealed']).where('id', '>', afterId).orderBy('id').limit(limit).execute();
  }

  async replaceWebhookSecret(id: number, from: string, to: string): Promise<boolean> {
    const result = await this.db.updateTable('webhookEndpoints').set({ sealedSecret: to }).where('id', '=', id).where('sealedSecret', '=', from).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
