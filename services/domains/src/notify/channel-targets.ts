import { integrationConfigSchemas, type IntegrationService } from '@sendwell/contracts';
import type { Executor } from '@sendwell/db';
import { DomainHealthRepository } from './domain-health.repository.js';
import { IntegrationRepository } from '../integrations/integration.repository.js';
import { WebhookEndpointRepository } from '../integrations/webhook-endpoint.repository.js';
import { isAlertService, isMarketingService, type ChannelTarget } from './channels/channel-sender.js';
import { sealedFor, type SecretBox } from './secret-box.js';

/** `webhook:<id>` → the endpoint's id. */
export const webhookChannelId = (channel: string): number | null => (channel.startsWith('webhook:') ? Number(channel.slice('webhook:'.length)) : null);
export const webhookChannel = (id: number) => `webhook:${id}`;

/**
 * Resolves a channel name of a delivery row to a target with its secrets opened, read afresh at each
 * attempt: a config replaced or removed since the alert was raised is honoured. Null when it is gone.
 */
export class ChannelTargets {
  private readonly integrations: IntegrationRepository;
  private readonly webhooks: WebhookEndpointRepository;
  private readonly health: DomainHealthRepository;

  constructor(
    db: Executor,
    private readonly box: SecretBox,
  ) {
    this.integrations = new IntegrationRepository(db);
    this.webhooks = new WebhookEndpointRepository(db);
    this.health = new DomainHealthRepository(db);
  }

  async resolve(userId: number, email: string, channel: string): Promise<ChannelTarget | null> {
    if (channel === 'email') return { kind: 'email', to: email };
    const webhookId = webhookChannelId(channel);
    if (webhookId !== null) {
      const endpoint = await this.webhooks.find(userId, webhookId);
      return endpoint?.isEnabled ? { kind: 'webhook', url: endpoint.url, secret: this.box.open(endpoint.sealedSecret, sealedFor.webhookSecret(userId)) } : null;
    }
    if (!isAlertService(channel) && !isMarketingService(channel)) return null;
    const stored = await this.integrations.find(userId, channel);
    return stored?.isEnabled ? this.integrationTarget(userId, email, channel, stored.sealed) : null;
  }

  /**
   * Opens a sealed config and checks it again against today's schema (a config saved by an older
   * release); a marketing platform's target carries the owner's domain health as of now.
   */
  async integrationTarget(userId: number, email: string, service: IntegrationService, sealed: string): Promise<ChannelTarget | null> {
    const parsed = integrationConfigSchemas[service].safeParse(this.box.openJson(sealed, sealedFor.integration(userId, service)));
    if (!parsed.success) return null;
    if (isAlertService(service)) return { kind: 'integration', service, config: parsed.data } as ChannelTarget;
    if (isMarketingService(service)) return { kind: 'marketing', service, config: parsed.data as never, ownerEmail: email, domains: await this.health.forUser(userId) };
    return null;
  }
}
