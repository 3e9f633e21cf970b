import type { IntegrationConfig } from '@sendwell/contracts';
import type { Mailer, OutboundHttp } from '@sendwell/server-kit';
import type { DomainHealth, MarketingSync } from '../../integrations/marketing-sync.js';
import type { MarketingService } from '../../integrations/marketing-verifier.js';
import type { AlertMessage } from '../alert-message.js';
import { deliverDiscord } from './discord.js';
import { alertMail } from './email.js';
import { deliverPagerDuty } from './pagerduty.js';
import { deliverSlack } from './slack.js';
import { deliverTeams } from './teams.js';
import { deliverWebhook, deliverZapier } from './webhook.js';

/** The services that receive alerts (`integrationDelivery` says 'alerts'). */
export type AlertService = 'slack' | 'teams' | 'discord' | 'zapier' | 'pagerduty';
export const alertServices: readonly AlertService[] = ['slack', 'teams', 'discord', 'zapier', 'pagerduty'];
export const isAlertService = (s: string): s is AlertService => (alertServices as readonly string[]).includes(s);
/** The marketing platforms (`integrationDelivery` says 'health-tag'): they get the owner's domain health, not the alert. */
export const marketingServices: readonly MarketingService[] = ['mailchimp', 'sendgrid', 'hubspot', 'constant contact'];
export const isMarketingService = (s: string): s is MarketingService => (marketingServices as readonly string[]).includes(s);

/** Where one delivery goes, with what it needs to get there (secrets already opened). */
export type ChannelTarget =
  | { kind: 'email'; to: string }
  | { [S in AlertService]: { kind: 'integration'; service: S; config: IntegrationConfig<S> } }[AlertService]
  | { kind: 'webhook'; url: string; secret: string }
  | { kind: 'marketing'; service: MarketingService; config: IntegrationConfig<MarketingService>; ownerEmail: string; domains: DomainHealth[] };

export interface ApiOrigins {
  slack: string;
  discord: string;
  pagerduty: string;
}

/** Sends one alert message to one target, in that target's own format. Throws OutboundError (or the mailer's error) on failure. */
export class ChannelSender {
  constructor(
    private readonly http: OutboundHttp,
    private readonly mailer: Mailer,
    private readonly origins: ApiOrigins,
    private readonly marketing: MarketingSync,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async send(target: ChannelTarget, message: AlertMessage): Promise<void> {
    switch (target.kind) {
      case 'email':
        return this.mailer.send(alertMail(target.to, message));
      case 'webhook':
        return deliverWebhook(this.http, target.url, target.secret, message, this.clock());
      case 'marketing':
        return this.marketing.push(target.service, target.config, target.ownerEmail, target.domains);
      case 'integration':
        switch (target.service) {
          case 'slack':
            return deliverSlack(this.http, this.origins.slack, target.config, message);
          case 'discord':
            return deliverDiscord(this.http, this.origins.discord, target.config, message);
          case 'teams':
            return deliverTeams(this.http, target.config, message);
          case 'pagerduty':
            return deliverPagerDuty(this.http, this.origins.pagerduty, target.config, message);
          case 'zapier':
            return deliverZapier(this.http, target.config.webhookUrl, message, this.clock());
        }
    }
  }
}
