import type { DeliveryStatus } from '@sendwell/contracts';
import type { Executor } from '@sendwell/db';

const COLUMNS = ['id', 'url', 'description', 'isEnabled', 'createdAt', 'lastStatus', 'lastError', 'lastDeliveryAt', 'sealedSecret'] as const;

/** Custom webhook endpoints (advanced), with their sealed signing secrets. */
export class WebhookEndpointRepository {
  constructor(private readonly db: Executor) {}

  async list(userId: number) {
    return this.db.selectFrom('webhookEndpoints').select(COLUMNS).where('userId', '=', userId).orderBy('id').execute();
  }

  async find(userId: number, id: number) {
    return this.db.selectFrom('webhookEndpoints').select(COLUMNS).where('userId', '=', userId).where('id', '=', id).executeTakeFirst();
  }

  async count(userId: number): Promise<number> {
    const row = await this.db.selectFrom('webhookEndpoints').select((eb) => eb.fn.countAll<string>().as('n')).where('userId', '=', userId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async create(userId: number, values: { url: string; description: string | null; sealedSecret: string }, now: Date) {
    return this.db
      .insertInto('webhookEndpoints')
      .values({ userId, ...values, createdAt: now })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
  }

  async remove(userId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('webhookEndpoints').where('userId', '=', userId).where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async recordDelivery(id: number, status: DeliveryStatus, error: string | null, at: Date): Promise<void> {
    await this.db.updateTable('webhookEndpoints').set({ lastStatus: status, lastError: error, lastDeliveryAt: at }).where('id', '=', id).execute();
  }
}
