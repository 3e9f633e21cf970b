import type { IntegrationField, IntegrationService } from '@sendwell/contracts';

/** How the page names and describes each service (the API's names are lower case). */
export const serviceInfo: Record<IntegrationService, { name: string; description: string }> = {
  slack: { name: 'Slack', description: 'Post alerts to a Slack channel through your Slack app’s bot token.' },
  teams: { name: 'Microsoft Teams', description: 'Post alerts to a Teams channel through an incoming webhook.' },
  discord: { name: 'Discord', description: 'Post alerts to a Discord channel through your bot.' },
  zapier: { name: 'Zapier', description: 'Send alerts to a Zap and on to 5000+ apps.' },
  pagerduty: { name: 'PagerDuty', description: 'Open an incident for each alert and resolve it when the problem clears.' },
  jira: { name: 'Jira / Linear', description: 'Keep your Jira site connected for issue tracking.' },
  mailchimp: { name: 'Mailchimp', description: 'Tag your audience with your domains’ health.' },
  sendgrid: { name: 'SendGrid', description: 'Check your sending domains’ health beside SendGrid.' },
  hubspot: { name: 'HubSpot', description: 'Share domain health with your HubSpot portal.' },
  'constant contact': { name: 'Constant Contact', description: 'Share domain health with Constant Contact.' },
};

/** Fields holding secrets are masked in the dialogs (part 2 §5). */
export const secretFields: ReadonlySet<IntegrationField> = new Set(['botToken', 'integrationKey', 'apiToken', 'apiKey', 'accessToken']);

/** Placeholders that show the expected shape. */
export const fieldPlaceholders: Partial<Record<IntegrationField, string>> = {
  botToken: 'xoxb-…',
  channelId: 'C0123456789',
  webhookUrl: 'https://…',
  integrationKey: '32-character routing key',
  domain: 'your-company.atlassian.net',
  serverPrefix: 'us21',
};
