import {
  CUSTOM_WEBHOOKS_PLAN_MESSAGE,
  features,
  MAX_WEBHOOKS_PER_USER,
  testAlertFailedMessage,
  testAlertSentMessage,
  tooManyWebhooksMessage,
  WEBHOOK_NOT_FOUND,
  type CreateWebhookAnswer,
  type WebhookEndpoint,
  type TestIntegrationAnswer,
} from '@sendwell/contracts';
import { withUserLimitLock, type Database } from '@sendwell/db';
import { badRequest, forbidden, notFound, OutboundError, planLimit, type AuthUser, type OutboundHttp } from '@sendwell/server-kit';
import { testMessage } from '../notify/alert-message.js';
import type { ChannelSender } from '../notify/channels/channel-sender.js';
import { newWebhookSecret } from '../notify/channels/webhook.js';
import { sealedFor, type SecretBox } from '../notify/secret-box.js';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';

type User = Pick<AuthUser, 'id' | 'planType'>;
type Row = Awaited<ReturnType<WebhookEndpointRepository['list']>>[number];

const toDto = (row: Row): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  description: row.description,
  enabled: row.isEnabled,
  createdAt: row.createdAt.toISOString(),
  lastStatus: row.lastStatus as WebhookEndpoint['lastStatus'],
  lastError: row.lastError,
  lastDeliveryAt: row.lastDeliveryAt?.toISOString() ?? null,
});

/** Custom webhooks (advanced): endpoints with a signing secret shown once, a test call and a delivery log. */
export class WebhookService {
  private readonly endpoints: WebhookEndpointRepository;

  constructor(
    private readonly db: Database,
    private readonly box: SecretBox,
    private readonly sender: ChannelSender,
    private readonly http: OutboundHttp,
    private readonly appUrl: string,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.endpoints = new WebhookEndpointRepository(db);
  }

  private gate(user: User): void {
    if (!features.customWebhooks(user.planType)) throw forbidden(CUSTOM_WEBHOOKS_PLAN_MESSAGE, { requiresUpgrade: true });
  }

  async list(user: User): Promise<WebhookEndpoint[]> {
    this.gate(user);
    return (await this.endpoints.list(user.id)).map(toDto);
  }

  async create(user: User, input: { url: string; description: string | null }): Promise<CreateWebhookAnswer> {
    this.gate(user);
    try {
      this.http.check(input.url);
    } catch (error) {
      throw badRequest(`Webhook URL cannot be used: ${error instanceof OutboundError ? error.message : 'invalid address'}.`);
    }
    const secret = newWebhookSecret();
    // Counted and inserted under the user's lock: twenty creates at once must not all see room.
    const row = await withUserLimitLock(this.db, 'webhook-endpoints', user.id, async (trx) => {
      const endpoints = new WebhookEndpointRepository(trx);
      if ((await endpoints.count(user.id)) >= MAX_WEBHOOKS_PER_USER) throw planLimit(tooManyWebhooksMessage(MAX_WEBHOOKS_PER_USER));
      return endpoints.create(user.id, { url: input.url, description: input.description, sealedSecret: this.box.seal(secret, sealedFor.webhookSecret(user.id)) }, this.clock());
    });
    return { success: true, webhook: toDto(row), secret };
  }

  /** Removing is allowed on any plan, so a downgraded user can still clean up. */
  async remove(user: User, id: number): Promise<void> {
    if (!(await this.endpoints.remove(user.id, id))) throw notFound(WEBHOOK_NOT_FOUND);
  }

  async test(user: User, id: number): Promise<TestIntegrationAnswer> {
    this.gate(user);
    const endpoint = await this.endpoints.find(user.id, id);
    if (!endpoint) throw notFound(WEBHOOK_NOT_FOUND);
    const now = this.clock();
    try {
      await this.sender.send({ kind: 'webhook', url: endpoint.url, secret: this.box.open(endpoint.sealedSecret, sealedFor.webhookSecret(user.id)) }, testMessage(this.appUrl, now));
    } catch (error) {
      const reason = error instanceof OutboundError ? error.message : 'the request failed';
      await this.endpoints.recordDelivery(id, 'failed', reason, now);
      return { success: true, delivered: false, message: testAlertFailedMessage(endpoint.url, reason) };
    }
    await this.endpoints.recordDelivery(id, 'sent', null, now);
    return { success: true, delivered: true, message: testAlertSentMessage(endpoint.url) };
  }
}
