import {
  features,
  INTEGRATION_NOT_CONFIGURED,
  integrationDelivery,
  integrationGroup,
  integrationRemovedMessage,
  integrationSavedMessage,
  integrationServices,
  INTEGRATIONS_PLAN_MESSAGE,
  MARKETING_INTEGRATIONS_PLAN_MESSAGE,
  testAlertFailedMessage,
  testAlertSentMessage,
  type DeleteIntegrationAnswer,
  type IntegrationService as ServiceName,
  type IntegrationSettings,
  type ListIntegrationsAnswer,
  type SaveIntegrationAnswer,
  type TestIntegrationAnswer,
} from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { badRequest, forbidden, notFound, OutboundError, type AuthUser, type OutboundHttp } from '@sendwell/server-kit';
import type { MarketingService, MarketingVerifier } from './marketing-verifier.js';
import { testMessage } from '../notify/alert-message.js';
import type { ChannelTargets } from '../notify/channel-targets.js';
import type { ChannelSender } from '../notify/channels/channel-sender.js';
import { sealedFor, type SecretBox } from '../notify/secret-box.js';
import { IntegrationRepository } from './integration.repository.js';

/** How the messages name each service (the spec's toast names the service). */
export const serviceLabels: Record<ServiceName, string> = {
  slack: 'Slack',
  teams: 'Microsoft Teams',
  discord: 'Discord',
  zapier: 'Zapier',
  pagerduty: 'PagerDuty',
  jira: 'Jira',
  mailchimp: 'Mailchimp',
  sendgrid: 'SendGrid',
  hubspot: 'HubSpot',
  'constant contact': 'Constant Contact',
};

type User = Pick<AuthUser, 'id' | 'planType'>;

/**
 * The integrations page's calls: configs validated by the contracts, sealed at rest, never sent back.
 * Chat and on-call services need standard, marketing platforms advanced (spec README), checked here.
 */
export class IntegrationService {
  private readonly integrations: IntegrationRepository;

  constructor(
    db: Database,
    private readonly box: SecretBox,
    private readonly targets: ChannelTargets,
    private readonly sender: ChannelSender,
    private readonly marketing: MarketingVerifier,
    private readonly http: OutboundHttp,
    private readonly appUrl: string,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.integrations = new IntegrationRepository(db);
  }

  private gate(user: User, service: ServiceName): void {
    if (integrationGroup[service] === 'marketing') {
      if (!features.marketingIntegrations(user.planType)) throw forbidden(MARKETING_INTEGRATIONS_PLAN_MESSAGE, { requiresUpgrade: true });
    } else if (!features.chatIntegrations(user.planType)) {
      throw forbidden(INTEGRATIONS_PLAN_MESSAGE, { requiresUpgrade: true });
    }
  }

  /** Every known service, configured or not, with the delivery log of configured ones. Open to every plan (the page shows what is locked). */
  async list(userId: number): Promise<ListIntegrationsAnswer> {
    const stored = new Map((await this.integrations.list(userId)).map((i) => [i.service, i]));
    return integrationServices.map((service) => {
      const row = stored.get(service);
      return row
        ? { service, configured: true, lastStatus: row.lastStatus, lastError: row.lastError, lastDeliveryAt: row.lastDeliveryAt?.toISOString() ?? null }
        : { service, configured: false };
    });
  }

  async save(user: User, settings: IntegrationSettings): Promise<SaveIntegrationAnswer> {
    this.gate(user, settings.service);
    if ('webhookUrl' in settings.config) this.checkUrl(settings.config.webhookUrl);
    let note: string | null = null;
    if (integrationGroup[settings.service] === 'marketing') {
      const check = await this.marketing.check(settings.service as MarketingService, settings.config as never);
      if (check.verdict === 'refused') throw badRequest(`${serviceLabels[settings.service]} did not accept these credentials: ${check.reason}.`);
      if (check.verdict === 'unreachable') note = `Could not reach ${serviceLabels[settings.service]} to verify the key (${check.reason}); saved as entered.`;
    }
    const now = this.clock();
    await this.integrations.save(user.id, settings.service, this.box.sealJson(settings.config, sealedFor.integration(user.id, settings.service)), now);
    if (note) await this.integrations.recordDelivery(user.id, settings.service, 'failed', note, now);
    return { success: true, service: settings.service, configured: true, message: integrationSavedMessage(serviceLabels[settings.service]) };
  }

  /** A URL the contracts accept but the outbound guard would refuse (a private address) is refused now, not at the first alert. */
  private checkUrl(url: string): void {
    try {
      this.http.check(url);
    } catch (error) {
      throw badRequest(`Webhook URL cannot be used: ${error instanceof OutboundError ? error.message : 'invalid address'}.`);
    }
  }

  async remove(user: User, service: ServiceName): Promise<DeleteIntegrationAnswer> {
    if (!(await this.integrations.remove(user.id, service))) throw notFound(INTEGRATION_NOT_CONFIGURED);
    return { success: true, message: integrationRemovedMessage(serviceLabels[service]) };
  }

    /** Sends a test alert now (a marketing platform gets its domain-health push) and records the outcome. */
  async test(user: User & { email: string }, service: ServiceName): Promise<TestIntegrationAnswer> {
    this.gate(user, service);
    const stored = await this.integrations.find(user.id, service);
    if (!stored) throw notFound(INTEGRATION_NOT_CONFIGURED);
    const label = serviceLabels[service];
    if (integrationDelivery[service] === 'stored') return { success: true, delivered: false, message: `${label} receives no alerts: its configuration is stored for issue tracking.` };
    const target = await this.targets.integrationTarget(user.id, user.email, service, stored.sealed);
    if (!target) throw badRequest(`The saved ${label} configuration is no longer valid; please configure it again.`);
    const now = this.clock();
    try {
      await this.sender.send(target, testMessage(this.appUrl, now));
    } catch (error) {
      const reason = error instanceof OutboundError ? error.message : 'the request failed';
      await this.integrations.recordDelivery(user.id, service, 'failed', reason, now);
      return { success: true, delivered: false, message: testAlertFailedMessage(label, reason) };
    }
    await this.integrations.recordDelivery(user.id, service, 'sent', null, now);
    return { success: true, delivered: true, message: target.kind === 'marketing' ? `Your domains' health was sent to ${label}.` : testAlertSentMessage(label) };
  }
}
