import { z } from '../zod.js';
import { idParamSchema } from '../common.js';
import { integrationListEntrySchema, integrationServiceSchema, integrationSettingsSchema } from '../entities/integration.js';
import { webhookEndpointSchema, webhookUrlSchema } from '../entities/webhook.js';
import { textField } from '../validation.js';
export * from './integration-messages.js';

/** GET /api/integrations: one entry per known service. */
export const listIntegrationsAnswer = z.array(integrationListEntrySchema);
export type ListIntegrationsAnswer = z.infer<typeof listIntegrationsAnswer>;

/** POST /api/integrations: creates or replaces the user's config of one service. */
export const saveIntegrationBody = integrationSettingsSchema;
export type SaveIntegrationBody = z.input<typeof saveIntegrationBody>;
export const saveIntegrationAnswer = z.object({
  success: z.literal(true),
  service: integrationServiceSchema,
  configured: z.literal(true),
  message: z.string(),
});
export type SaveIntegrationAnswer = z.infer<typeof saveIntegrationAnswer>;


/** `/api/integrations/:service/...`: the service as the list names it ("constant contact" URL-encoded). */
export const integrationServiceParams = z.object({ service: integrationServiceSchema });
export type IntegrationServiceParams = z.infer<typeof integrationServiceParams>;

/**
 * POST /api/integrations/:service/test and /api/integrations/webhooks/:id/test: one test alert, sent
 * now. The call succeeds whether or not the receiver took it; `delivered` and `message` say which (a
 * receiver's failure is not ours to answer with a 5xx).
 */
export const testIntegrationAnswer = z.object({ success: z.literal(true), delivered: z.boolean(), message: z.string() });
export type TestIntegrationAnswer = z.infer<typeof testIntegrationAnswer>;
export const testAlertSentMessage = (target: string) => `A test alert was delivered to ${target}.`;
export const testAlertFailedMessage = (target: string, reason: string) => `The test alert could not be delivered to ${target}: ${reason}`;

/** DELETE /api/integrations/:service */
export const deleteIntegrationAnswer = z.object({ success: z.literal(true), message: z.string() });
export type DeleteIntegrationAnswer = z.infer<typeof deleteIntegrationAnswer>;
export const integrationRemovedMessage = (service: string) => `${service} integration has been removed.`;
export const INTEGRATION_NOT_CONFIGURED = 'This integration is not configured.';

/** GET /api/integrations/webhooks */
export const listWebhooksAnswer = z.array(webhookEndpointSchema);
export type ListWebhooksAnswer = z.infer<typeof listWebhooksAnswer>;

/** POST /api/integrations/webhooks: the answer is the only time the signing secret is shown. */
export const createWebhookBody = z.object({
  url: webhookUrlSchema,
  description: textField({ label: 'Description', max: 200 })
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type CreateWebhookBody = z.input<typeof createWebhookBody>;
export const createWebhookAnswer = z.object({ success: z.literal(true), webhook: webhookEndpointSchema, secret: z.string() });
export type CreateWebhookAnswer = z.infer<typeof createWebhookAnswer>;

export const webhookIdParams = z.object({ id: idParamSchema });
export type WebhookIdParams = z.infer<typeof webhookIdParams>;
/** DELETE /api/integrations/webhooks/:id */
export const deleteWebhookAnswer = z.object({ success: z.literal(true) });

export const WEBHOOK_NOT_FOUND = 'Webhook not found';
export const tooManyWebhooksMessage = (max: number) => `You can add at most ${max} webhooks.`;
export const WEBHOOK_HTTPS_ONLY = 'Webhook URL must be a valid https:// address';
