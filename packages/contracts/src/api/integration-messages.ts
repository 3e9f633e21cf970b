/** The integration calls' messages, without zod, for the screens that show them. */
export const INTEGRATIONS_PLAN_MESSAGE = 'Integrations are available for Standard and Advanced subscribers only.';
export const MARKETING_INTEGRATIONS_PLAN_MESSAGE = 'Email marketing integrations are available for Advanced subscribers only.';
export const integrationSavedMessage = (service: string) => `${service} integration has been configured successfully.`;
export const CUSTOM_WEBHOOKS_PLAN_MESSAGE = 'Custom webhooks are available for Advanced subscribers only.';
