import { z } from '../zod.js';
import { messages, textField } from '../validation.js';

/** Service names as the client sends them: lower case, "constant contact" with its space (part 2 §7). */
export const integrationServices = [
  'slack',
  'teams',
  'discord',
  'zapier',
  'pagerduty',
  'jira',
  'mailchimp',
  'sendgrid',
  'hubspot',
  'constant contact',
] as const;
export const integrationServiceSchema = z.enum(integrationServices, {
  error: 'Please choose a supported integration service',
});
export type IntegrationService = z.infer<typeof integrationServiceSchema>;

/** Chat and operations tools need standard; marketing platforms need advanced (spec README decisions). */
export const integrationGroup: Record<IntegrationService, 'chat' | 'marketing'> = {
  slack: 'chat',
  teams: 'chat',
  discord: 'chat',
  zapier: 'chat',
  pagerduty: 'chat',
  jira: 'chat',
  mailchimp: 'marketing',
  sendgrid: 'marketing',
  hubspot: 'marketing',
  'constant contact': 'marketing',
};

/** How each config field is named to the user, so a missing field's message names it. */
export const integrationFieldLabels = {
  botToken: 'Bot Token',
  channelId: 'Channel ID',
  webhookUrl: 'Webhook URL',
  integrationKey: 'Integration Key',
  domain: 'Jira Domain',
  email: 'Email',
  apiToken: 'API Token',
  apiKey: 'API Key',
  serverPrefix: 'Server Prefix',
  accessToken: 'Access Token',
} as const;
export type IntegrationField = keyof typeof integrationFieldLabels;

export const requiredFieldMessage = (field: IntegrationField) => `${integrationFieldLabels[field]} is required`;

/** A required, non-empty (after trimming) text field whose messages name it. */
function required(field: IntegrationField) {
  return textField({ label: integrationFieldLabels[field], max: 2048, required: requiredFieldMessage(field) });
}

const webhookUrl = required('webhookUrl').refine((v) => /^https:\/\/[^\s/]+\.[^\s]+$/i.test(v), {
  message: 'Webhook URL must be a valid https:// address',
});

export const slackConfigSchema = z.object({ botToken: required('botToken'), channelId: required('channelId') });
export const discordConfigSchema = slackConfigSchema;
export const teamsConfigSchema = z.object({ webhookUrl });
export const zapierConfigSchema = teamsConfigSchema;
export const pagerdutyConfigSchema = z.object({ integrationKey: required('integrationKey') });
export const jiraConfigSchema = z.object({
  /** The site, e.g. "acme.atlassian.net"; a pasted scheme or trailing slash is dropped. */
  domain: required('domain').transform((v) => v.replace(/^https?:\/\//i, '').replace(/\/+$/, '')),
  email: required('email').pipe(z.email(messages.invalidEmail)),
  apiToken: required('apiToken'),
});
export const mailchimpConfigSchema = z.object({ apiKey: required('apiKey'), serverPrefix: required('serverPrefix') });
export const sendgridConfigSchema = z.object({ apiKey: required('apiKey') });
export const hubspotConfigSchema = sendgridConfigSchema;
export const constantContactConfigSchema = z.object({ apiKey: required('apiKey'), accessToken: required('accessToken') });

export const integrationConfigSchemas = {
  slack: slackConfigSchema,
  teams: teamsConfigSchema,
  discord: discordConfigSchema,
  zapier: zapierConfigSchema,
  pagerduty: pagerdutyConfigSchema,
  jira: jiraConfigSchema,
  mailchimp: mailchimpConfigSchema,
  sendgrid: sendgridConfigSchema,
  hubspot: hubspotConfigSchema,
  'constant contact': constantContactConfigSchema,
} as const satisfies Record<IntegrationService, z.ZodType>;
export type IntegrationConfig<S extends IntegrationService> = z.infer<(typeof integrationConfigSchemas)[S]>;

/** The fields the Save Configuration button waits for, per service (part 2 §5). */
export const integrationRequiredFields: Record<IntegrationService, readonly IntegrationField[]> = {
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
};

const entry = <S extends IntegrationService>(service: S) =>
  z.object({ service: z.literal(service), config: integrationConfigSchemas[service] });

/** `{service, config}` checked against that service's config schema. */
export const integrationSettingsSchema = z.discriminatedUnion(
  'service',
  [
    entry('slack'),
    entry('teams'),
    entry('discord'),
    entry('zapier'),
    entry('pagerduty'),
    entry('jira'),
    entry('mailchimp'),
    entry('sendgrid'),
    entry('hubspot'),
    entry('constant contact'),
  ],
  { error: 'Please choose a supported integration service' },
);
export type IntegrationSettings = z.infer<typeof integrationSettingsSchema>;

/**
 * What Sendwell does with each configured service: chat and on-call tools get every alert; Jira is
 * stored for the issue-creation flow to come; marketing platforms get a domain-health tag.
 */
export const integrationDelivery: Record<IntegrationService, 'alerts' | 'stored' | 'health-tag'> = {
  slack: 'alerts',
  teams: 'alerts',
  discord: 'alerts',
  zapier: 'alerts',
  pagerduty: 'alerts',
  jira: 'stored',
  mailchimp: 'health-tag',
  sendgrid: 'health-tag',
  hubspot: 'health-tag',
  'constant contact': 'health-tag',
};

/**
 * What marketing platforms get: the account owner's contact in the platform carries each monitored
 * domain's health, as tags `sendwell:<domain>:<status>` (Mailchimp) or as one text field or property
 * named below (SendGrid, HubSpot, Constant Contact) holding "example.com: healthy (92); …". Pushed when
 * a domain's status changes and by "Send test alert".
 */
export const MARKETING_HEALTH_FIELD = 'sendwell_domain_health';
export const MARKETING_HEALTH_LABEL = 'Sendwell domain health';
export const marketingHealthTag = (domain: string, status: string) => `sendwell:${domain}:${status}`;

/** The outcome of a channel's latest delivery, as the integrations page shows it. */
export const deliveryStatuses = ['sent', 'failed'] as const;
export const deliveryStatusSchema = z.enum(deliveryStatuses);
export type DeliveryStatus = z.infer<typeof deliveryStatusSchema>;

export const deliveryLogSchema = z.object({
  lastStatus: deliveryStatusSchema.nullable(),
  /** Why the latest delivery failed, in words safe to show (never an internal address). */
  lastError: z.string().nullable(),
  lastDeliveryAt: z.string().nullable(),
});
export type DeliveryLog = z.infer<typeof deliveryLogSchema>;

/** One row of `GET /api/integrations`; configs hold secrets and are never sent back. */
export const integrationListEntrySchema = z.object({
  service: integrationServiceSchema,
  configured: z.boolean(),
  ...deliveryLogSchema.partial().shape,
});
export type IntegrationListEntry = z.infer<typeof integrationListEntrySchema>;
