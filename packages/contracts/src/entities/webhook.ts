import { z } from '../zod.js';
import { isoDateTime } from '../common.js';
import { textField } from '../validation.js';
import { alertSeveritySchema, type AlertEvent } from './alert.js';
import { deliveryLogSchema } from './integration.js';
import { WEBHOOK_API_VERSION } from './webhook-signature.js';

export * from './webhook-signature.js';

export const webhookEventTypes = ['alert.raised', 'alert.resolved', 'webhook.test'] as const;
export const webhookEventTypeSchema = z.enum(webhookEventTypes);
export type WebhookEventType = z.infer<typeof webhookEventTypeSchema>;
export const webhookEventType = (event: AlertEvent): WebhookEventType => (event === 'raised' ? 'alert.raised' : 'alert.resolved');

/** The body of every webhook delivery (and of Zapier's), versioned by `apiVersion`. */
export const webhookPayloadSchema = z.object({
  /** Stable per alert and event: `evt_<alertId>_<event>`; the same on every retry. */
  id: z.string(),
  type: webhookEventTypeSchema,
  apiVersion: z.literal(WEBHOOK_API_VERSION),
  createdAt: isoDateTime,
  data: z.object({
    alert: z.object({
      /** 0 in a `webhook.test` event, which is about no real alert. */
      id: z.number().int().nonnegative(),
      type: z.string(),
      severity: alertSeveritySchema,
      title: z.string(),
      message: z.string(),
      details: z.record(z.string(), z.unknown()),
      createdAt: isoDateTime,
      resolvedAt: isoDateTime.nullable(),
    }),
    domain: z.object({ id: z.number().int().nonnegative(), name: z.string() }),
    links: z.object({ domain: z.string(), guide: z.string().nullable() }),
  }),
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;

/** An endpoint's URL: https, a host name or address, at most 2048 characters. */
export const webhookUrlSchema = textField({ label: 'Webhook URL', max: 2048, required: 'Webhook URL is required' }).refine(
  (v) => {
    try {
      const url = new URL(v);
      return url.protocol === 'https:' && url.hostname.length > 0 && !url.username && !url.password;
    } catch {
      return false;
    }
  },
  { message: 'Webhook URL must be a valid https:// address' },
);

export const webhookEndpointSchema = z.object({
  id: z.number().int().positive(),
  url: z.string(),
  description: z.string().nullable(),
  enabled: z.boolean(),
  createdAt: isoDateTime,
  ...deliveryLogSchema.shape,
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;
