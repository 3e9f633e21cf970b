import { z } from '../zod.js';
import { messages, textField } from '../validation.js';
import { integrationFieldLabels, integrationServices, requiredFieldMessage, type IntegrationField, type IntegrationService } from './integration-services.js';
export * from './integration-services.js';

export const integrationServiceSchema = z.enum(integrationServices, {
  error: 'Please choose a supported integration service',
});

/** A required, non-empty (after trimming) text field whose messages name it. */
function required(field: IntegrationField) {
  return textField({ label: integrationFieldLabels[field], max: 2048, required: requiredFieldMessage(field) });
}

const webhookUrl = required('webhookUrl').refine((v) => /^https:\/\/[^\s/][^\s./]*\.\S+$/i.test(v), {
  message: 'Webhook URL must be a valid https:// address',
});

export const slackConfigSchema = z.object({ botToken: required('botToken'), channelId: required('channelId') });
export const discordConfigSchema = slackConfigSchema;
export const teamsConfigSchema = z.object({ webhookUrl });
export const zapierConfigSchema = teamsConfigSchema;
export const pagerdutyConfigSchema = z.object({ integrationKey: required('integrationKey') });
export const jiraConfigSchema = z.object({
  /** The site, e.g. "acme.atlassian.net"; a pasted scheme or trailing slash is dropped. */
  domain: required('domain').transform((v) => v.replace(/^https?:\/\//i, '').replace(/(?<!\/)\/+$/, '')),
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
