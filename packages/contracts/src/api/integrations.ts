import { z } from 'zod';
import { integrationListEntrySchema, integrationServiceSchema, integrationSettingsSchema } from '../entities/integration.js';

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

export const INTEGRATIONS_PLAN_MESSAGE = 'Integrations are available for Standard and Advanced subscribers only.';
export const MARKETING_INTEGRATIONS_PLAN_MESSAGE = 'Email marketing integrations are available for Advanced subscribers only.';
export const integrationSavedMessage = (service: string) => `${service} integration has been configured successfully.`;
