import { createHash } from 'node:crypto';
import { MARKETING_HEALTH_FIELD, MARKETING_HEALTH_LABEL, marketingHealthTag, type IntegrationConfig } from '@sendwell/contracts';
import { OutboundError, type OutboundAnswer, type OutboundHttp } from '@sendwell/server-kit';
import { expectSuccess } from '../notify/channels/answer.js';
import type { MarketingOrigins, MarketingService } from './marketing-verifier.js';

export interface DomainHealth {
  name: string;
  status: string;
  score: number | null;
}

/** The statuses a domain can show; the Mailchimp tags of the others are removed. */
const STATUSES = ['healthy', 'warning', 'critical', 'pending'] as const;
/** Constant Contact's custom fields hold 255 characters at most; the others take more, all take this. */
const SUMMARY_LIMIT = 255;

/** "example.com: healthy (92); shop.example: critical (41)", at most 255 characters. */
export function healthSummary(domains: readonly DomainHealth[]): string {
  const text = domains.map((d) => `${d.name}: ${d.status}${d.score === null ? '' : ` (${d.score})`}`).join('; ');
  return text.length <= SUMMARY_LIMIT ? text : `${text.slice(0, SUMMARY_LIMIT - 1)}…`;
}

function json<T>(answer: OutboundAnswer, platform: string): T {
  try {
    return JSON.parse(answer.body) as T;
  } catch {
    throw new OutboundError(`${platform} answered something other than JSON`, false);
  }
}

/**
 * Pushes the account owner's domain health to a marketing platform, through each one's own API:
 * - Mailchimp: the owner as a transactional member of the first audience, tagged
 *   `sendwell:<domain>:<status>` (the other statuses' tags removed);
 * - SendGrid: the owner's contact with the `sendwell_domain_health` custom field (created if missing);
 * - HubSpot: the owner's contact with the `sendwell_domain_health` property (created if missing);
 * - Constant Contact: the owner's contact in the first list with the "Sendwell domain health" custom field.
 * Every step is an upsert, so a retry or a second push only rewrites the same values.
 */
export class MarketingSync {
  constructor(
    private readonly http: OutboundHttp,
    private readonly origins: MarketingOrigins,
  ) {}

  async push(service: MarketingService, config: IntegrationConfig<MarketingService>, ownerEmail: string, domains: readonly DomainHealth[]): Promise<void> {
    switch (service) {
      case 'mailchimp':
        return this.mailchimp(config as IntegrationConfig<'mailchimp'>, ownerEmail, domains);
      case 'sendgrid':
        return this.sendgrid(config as IntegrationConfig<'sendgrid'>, ownerEmail, domains);
      case 'hubspot':
        return this.hubspot(config as IntegrationConfig<'hubspot'>, ownerEmail, domains);
      case 'constant contact':
        return this.constantContact(config as IntegrationConfig<'constant contact'>, ownerEmail, domains);
    }
  }

  private async mailchimp(config: IntegrationConfig<'mailchimp'>, email: string, domains: readonly DomainHealth[]): Promise<void> {
    const base = this.origins.mailchimp.replace('{dc}', encodeURIComponent(config.serverPrefix.toLowerCase()));
    const headers = { authorization: `Basic ${Buffer.from(`sendwell:${config.apiKey}`).toString('base64')}` };
    const lists = await this.http.get(`${base}/lists?count=1&fields=lists.id`, headers);
    expectSuccess(lists, 'Mailchimp');
    const listId = json<{ lists?: Array<{ id: string }> }>(lists, 'Mailchimp').lists?.[0]?.id;
    if (!listId) throw new OutboundError('Mailchimp has no audience to keep the health tags in', true);
    const member = `${base}/lists/${encodeURIComponent(listId)}/members/${createHash('md5').update(email.toLowerCase()).digest('hex')}`;
    // Transactional: a contact that receives no campaigns, which is what a tag holder is.
    expectSuccess(await this.http.put(member, JSON.stringify({ email_address: email, status_if_new: 'transactional' }), headers), 'Mailchimp');
    const tags = domains.flatMap((d) => STATUSES.map((s) => ({ name: marketingHealthTag(d.name, s), status: s === d.status ? 'active' : 'inactive' })));
    expectSuccess(await this.http.post(`${member}/tags`, JSON.stringify({ tags }), headers), 'Mailchimp');
  }

  private async sendgrid(config: IntegrationConfig<'sendgrid'>, email: string, domains: readonly DomainHealth[]): Promise<void> {
    const base = this.origins.sendgrid;
    const headers = { authorization: `Bearer ${config.apiKey}` };
    const fields = await this.http.get(`${base}/v3/marketing/field_definitions`, headers);
    expectSuccess(fields, 'SendGrid');
    let fieldId = json<{ custom_fields?: Array<{ id: string; name: string }> }>(fields, 'SendGrid').custom_fields?.find((f) => f.name === MARKETING_HEALTH_FIELD)?.id;
    if (!fieldId) {
      const created = await this.http.post(`${base}/v3/marketing/field_definitions`, JSON.stringify({ name: MARKETING_HEALTH_FIELD, field_type: 'Text' }), headers);
      expectSuccess(created, 'SendGrid');
      fieldId = json<{ id: string }>(created, 'SendGrid').id;
    }
    const contacts = { contacts: [{ email, custom_fields: { [fieldId]: healthSummary(domains) } }] };
    expectSuccess(await this.http.put(`${base}/v3/marketing/contacts`, JSON.stringify(contacts), headers), 'SendGrid');
  }

  private async hubspot(config: IntegrationConfig<'hubspot'>, email: string, domains: readonly DomainHealth[]): Promise<void> {
    const base = this.origins.hubspot;
    const headers = { authorization: `Bearer ${config.apiKey}` };
    const property = { name: MARKETING_HEALTH_FIELD, label: MARKETING_HEALTH_LABEL, type: 'string', fieldType: 'textarea', groupName: 'contactinformation' };
    const created = await this.http.post(`${base}/crm/v3/properties/contacts`, JSON.stringify(property), headers);
    // 409: the property exists already, from an earlier push.
    if (created.status !== 409) expectSuccess(created, 'HubSpot');
    const upsert = { inputs: [{ idProperty: 'email', id: email, properties: { email, [MARKETING_HEALTH_FIELD]: healthSummary(domains) } }] };
    expectSuccess(await this.http.post(`${base}/crm/v3/objects/contacts/batch/upsert`, JSON.stringify(upsert), headers), 'HubSpot');
  }

  private async constantContact(config: IntegrationConfig<'constant contact'>, email: string, domains: readonly DomainHealth[]): Promise<void> {
    const base = this.origins.constantContact;
    const headers = { authorization: `Bearer ${config.accessToken}` };
    const fields = await this.http.get(`${base}/contact_custom_fields?limit=100`, headers);
    expectSuccess(fields, 'Constant Contact');
    let fieldId = json<{ custom_fields?: Array<{ custom_field_id: string; label: string }> }>(fields, 'Constant Contact').custom_fields?.find(
      (f) => f.label === MARKETING_HEALTH_LABEL,
    )?.custom_field_id;
    if (!fieldId) {
      const created = await this.http.post(`${base}/contact_custom_fields`, JSON.stringify({ label: MARKETING_HEALTH_LABEL, type: 'string' }), headers);
      expectSuccess(created, 'Constant Contact');
      fieldId = json<{ custom_field_id: string }>(created, 'Constant Contact').custom_field_id;
    }
    const lists = await this.http.get(`${base}/contact_lists?limit=1`, headers);
    expectSuccess(lists, 'Constant Contact');
    const listId = json<{ lists?: Array<{ list_id: string }> }>(lists, 'Constant Contact').lists?.[0]?.list_id;
    if (!listId) throw new OutboundError('Constant Contact has no contact list to keep the health field in', true);
    const contact = { email_address: email, list_memberships: [listId], custom_fields: [{ custom_field_id: fieldId, value: healthSummary(domains) }] };
    expectSuccess(await this.http.post(`${base}/contacts/sign_up_form`, JSON.stringify(contact), headers), 'Constant Contact');
  }
}
