/** Integration services, their fields and groups, without zod, for the screens that list them. */

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
export type IntegrationService = (typeof integrationServices)[number];

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
