import { z } from '../zod.js';
import { isoDateTime } from '../common.js';

/**
 * An invoice in Stripe's own shape and spelling (part 2 §3): amounts in minor units, times in epoch
 * seconds. Status is text because Stripe has more values than the four the screen colours.
 */
export const invoiceStatuses = ['paid', 'open', 'draft', 'void', 'uncollectible'] as const;
export const invoiceSchema = z.object({
  id: z.string(),
  number: z.string().nullable(),
  status: z.string().nullable(),
  amount_paid: z.number().int().nonnegative(),
  currency: z.string(),
  created: z.number().int(),
  period_start: z.number().int(),
  period_end: z.number().int(),
  description: z.string().nullable(),
  invoice_pdf: z.string().nullable(),
  hosted_invoice_url: z.string().nullable(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

export const paymentMethodSchema = z.object({
  brand: z.string(),
  last4: z.string().regex(/^\d{4}$/),
  expMonth: z.number().int().min(1).max(12),
  expYear: z.number().int(),
});
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

export const subscriptionStatusSchema = z.object({
  /** Stripe's subscription status (active, past_due, canceled…); null without a subscription. */
  status: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  currentPeriodEnd: isoDateTime.nullable(),
});
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;
