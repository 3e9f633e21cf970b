import type { IntegrationConfig } from '@sendwell/contracts';
import { OutboundError, type OutboundHttp } from '@sendwell/server-kit';

export type MarketingService = 'mailchimp' | 'sendgrid' | 'hubspot' | 'constant contact';

export interface MarketingOrigins {
  /** With `{dc}` for the account's data centre (the server prefix). */
  mailchimp: string;
  sendgrid: string;
  hubspot: string;
  constantContact: string;
}

export type KeyCheck = { verdict: 'valid' } | { verdict: 'refused'; reason: string } | { verdict: 'unreachable'; reason: string };

/**
 * Checks a marketing platform's API key with one harmless authenticated read of its own API (Mailchimp
 * /ping, SendGrid /v3/scopes, HubSpot account details, Constant Contact account summary). A 401 or 403
 * means the key is wrong; a platform we cannot reach does not block saving.
 */
export class MarketingVerifier {
  constructor(
    private readonly http: OutboundHttp,
    private readonly origins: MarketingOrigins,
  ) {}

  private request(service: MarketingService, config: IntegrationConfig<MarketingService>): { url: string; headers: Record<string, string> } {
    switch (service) {
      case 'mailchimp': {
        const c = config as IntegrationConfig<'mailchimp'>;
        const dc = encodeURIComponent(c.serverPrefix.toLowerCase());
        return { url: `${this.origins.mailchimp.replace('{dc}', dc)}/ping`, headers: { authorization: `Basic ${Buffer.from(`sendwell:${c.apiKey}`).toString('base64')}` } };
      }
      case 'sendgrid':
        return { url: `${this.origins.sendgrid}/v3/scopes`, headers: { authorization: `Bearer ${(config as IntegrationConfig<'sendgrid'>).apiKey}` } };
      case 'hubspot':
        return { url: `${this.origins.hubspot}/account-info/v3/details`, headers: { authorization: `Bearer ${(config as IntegrationConfig<'hubspot'>).apiKey}` } };
      case 'constant contact': {
        const c = config as IntegrationConfig<'constant contact'>;
        return { url: `${this.origins.constantContact}/account/summary`, headers: { authorization: `Bearer ${c.accessToken}`, 'x-api-key': c.apiKey } };
      }
    }
  }

  async check(service: MarketingService, config: IntegrationConfig<MarketingService>): Promise<KeyCheck> {
    const { url, headers } = this.request(service, config);
    try {
      const answer = await this.http.get(url, { ...headers, accept: 'application/json' });
      if (answer.status >= 200 && answer.status < 300) return { verdict: 'valid' };
      if (answer.status === 401 || answer.status === 403) return { verdict: 'refused', reason: `the platform refused the key (HTTP ${answer.status})` };
      return { verdict: 'unreachable', reason: `the platform answered HTTP ${answer.status}` };
    } catch (error) {
      return { verdict: 'unreachable', reason: error instanceof OutboundError ? error.message : 'the request failed' };
    }
  }
}
