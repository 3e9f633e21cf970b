import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { features } from '../plans.js';
import {
  integrationConfigSchemas,
  integrationGroup,
  integrationRequiredFields,
  integrationServices,
  integrationSettingsSchema,
  requiredFieldMessage,
  type IntegrationService,
} from './integration.js';
import { listIntegrationsAnswer, saveIntegrationBody } from '../api/integrations.js';

function messagesOf(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => i.message);
}

const validConfigs: Record<IntegrationService, Record<string, string>> = {
  slack: { botToken: 'xoxb-1', channelId: 'C123' },
  teams: { webhookUrl: 'https://acme.webhook.office.com/x' },
  discord: { botToken: 'abc', channelId: '42' },
  zapier: { webhookUrl: 'https://hooks.zapier.com/hooks/catch/1/2' },
  pagerduty: { integrationKey: 'key' },
  jira: { domain: 'acme.atlassian.net', email: 'ops@acme.io', apiToken: 't' },
  mailchimp: { apiKey: 'k-us21', serverPrefix: 'us21' },
  sendgrid: { apiKey: 'SG.x' },
  hubspot: { apiKey: 'pat-1' },
  'constant contact': { apiKey: 'k', accessToken: 'a' },
};

describe('integration configs (part 2 §5)', () => {
  it('covers the ten services with their required fields', () => {
    expect([...integrationServices]).toEqual(Object.keys(validConfigs));
    expect(integrationRequiredFields).toEqual({
      slack: ['botToken', 'channelId'],
      teams: ['webhookUrl'],
      discord: ['botToken', 'channelId'],
      zapier: ['webhookUrl'],
      pagerduty: ['integrationKey'],
      jira: ['domain', 'email', 'apiToken'],
      mailchimp: ['apiKey', 'serverPrefix'],
      sendgrid: ['apiKey'],
      hubspot: ['apiKey'],
      'constant contact': ['apiKey', 'accessToken'],
    });
  });

  it.each(integrationServices)('%s accepts a complete config', (service) => {
    expect(saveIntegrationBody.safeParse({ service, config: validConfigs[service] }).success).toBe(true);
  });

  it.each(integrationServices.flatMap((s) => integrationRequiredFields[s].map((f) => [s, f] as const)))(
    '%s without %s names the field, missing or blank',
    (service, field) => {
      const config = { ...validConfigs[service] };
      delete config[field];
      expect(messagesOf(integrationSettingsSchema, { service, config })).toEqual([requiredFieldMessage(field)]);
      expect(messagesOf(integrationSettingsSchema, { service, config: { ...config, [field]: '   ' } })).toEqual([
        requiredFieldMessage(field),
      ]);
    },
  );

  it('names fields in words', () => {
    expect(requiredFieldMessage('botToken')).toBe('Bot Token is required');
    expect(requiredFieldMessage('webhookUrl')).toBe('Webhook URL is required');
    expect(requiredFieldMessage('apiKey')).toBe('API Key is required');
  });

  it('lists every missing field of one config', () => {
    expect(messagesOf(integrationSettingsSchema, { service: 'jira', config: {} })).toEqual([
      'Jira Domain is required',
      'Email is required',
      'API Token is required',
    ]);
  });

  it('refuses an unknown or differently spelled service', () => {
    for (const service of ['myspace', 'Slack', 'constant_contact', undefined]) {
      expect(messagesOf(integrationSettingsSchema, { service, config: {} })).toEqual(['Please choose a supported integration service']);
    }
  });

  it('trims fields, needs an https webhook and a valid Jira email, and drops a pasted scheme from the Jira domain', () => {
    expect(integrationConfigSchemas.slack.parse({ botToken: ' t ', channelId: ' c ' })).toEqual({ botToken: 't', channelId: 'c' });
    expect(messagesOf(integrationConfigSchemas.teams, { webhookUrl: 'http://x.example.com/h' })).toEqual([
      'Webhook URL must be a valid https:// address',
    ]);
    expect(messagesOf(integrationConfigSchemas.jira, { ...validConfigs.jira, email: 'nope' })).toEqual(['Please enter a valid email']);
    expect(integrationConfigSchemas.jira.parse({ ...validConfigs.jira, domain: 'https://acme.atlassian.net/' }).domain).toBe(
      'acme.atlassian.net',
    );
  });

  it('strips unknown config keys', () => {
    expect(integrationConfigSchemas.sendgrid.parse({ apiKey: 'k', extra: 1 })).toEqual({ apiKey: 'k' });
  });

  it('gates chat tools at standard and marketing platforms at advanced', () => {
    const gate = (s: IntegrationService) => (integrationGroup[s] === 'chat' ? features.chatIntegrations : features.marketingIntegrations);
    expect(integrationServices.filter((s) => gate(s)('standard'))).toEqual(['slack', 'teams', 'discord', 'zapier', 'pagerduty', 'jira']);
    expect(integrationServices.filter((s) => gate(s)('advanced'))).toHaveLength(10);
    expect(integrationServices.filter((s) => gate(s)('basic'))).toEqual([]);
  });

  it('the list answer carries service and configured only', () => {
    expect(listIntegrationsAnswer.parse([{ service: 'constant contact', configured: true, config: { apiKey: 'secret' } }])).toEqual([
      { service: 'constant contact', configured: true },
    ]);
  });
});
