import { integrationConfigSchemas, type IntegrationService } from '@sendwell/contracts';
import type { Executor } from '@sendwell/db';
import { IntegrationRepository } from '../repositories/integration.repository.js';
import { WebhookEndpointRepository } from '../repositories/webhook-endpoint.repository.js';
import { isAlertService, type ChannelTarget } from './channels/channel-sender.js';
import type { SecretBox } from './secret-box.js';

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

  constructor(
    db: Executor,
    private readonly box: SecretBox,
  ) {
    this.integrations = new IntegrationRepository(db);
    this.webhooks = new WebhookEndpointRepository(db);
  }

  async resolve(userId: number, email: string, channel: string): Promise<ChannelTarget | null> {
    if (channel === 'email') return { kind: 'email', to: email };
    const webhookId = webhookChannelId(channel);
    if (webhookId !== null) {
      const endpoint = await this.webhooks.find(userId, webhookId);
      return endpoint?.isEnabled ? { kind: 'webhook', url: endpoint.url, secret: this.box.open(endpoint.sealedSecret) } : null;
    }
    if (!isAlertService(channel)) return null;
    const stored = await this.integrations.find(userId, channel);
    return stored?.isEnabled ? this.integrationTarget(channel, stored.sealed) : null;
  }

  /** Opens a sealed config and checks it again against today's schema (a config saved by an older release). */
  integrationTarget(service: IntegrationService, sealed: string): ChannelTarget | null {
    if (!isAlertService(service)) return null;
    const parsed = integrationConfigSchemas[service].safeParse(this.box.openJson(sealed));
    return parsed.success ? ({ kind: 'integration', service, config: parsed.data } as ChannelTarget) : null;
  }
}
