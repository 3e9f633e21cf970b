import { z } from '../zod.js';
import { isoDateTime } from '../common.js';
import { invoiceSchema, paymentMethodSchema, subscriptionStatusSchema } from '../entities/billing.js';
import { planTypeSchema } from '../plan-schemas.js';
import { paidPlans } from '../plans.js';
export { invoiceFileName } from './billing-rules.js';

const planField = z.enum(paidPlans, { error: 'Please choose one of the plans: basic, standard or advanced' });

/** POST /api/subscription: a new subscription needs a card (clientSecret); an existing one is updated. */
export const createSubscriptionBody = z.object({ plan: planField });
export type CreateSubscriptionBody = z.infer<typeof createSubscriptionBody>;
export const createSubscriptionAnswer = z.union([
  z.object({ clientSecret: z.string(), subscriptionId: z.string().optional() }),
  z.object({ type: z.literal('subscription'), subscriptionId: z.string(), message: z.string().optional() }),
]);
export type CreateSubscriptionAnswer = z.infer<typeof createSubscriptionAnswer>;

/** POST /api/subscription/update: a paid plan changes at the next billing cycle. */
export const updateSubscriptionBody = z.object({ plan: planField });
export type UpdateSubscriptionBody = z.infer<typeof updateSubscriptionBody>;
export const updateSubscriptionAnswer = z.object({ message: z.string(), planType: planTypeSchema.optional() });
export type UpdateSubscriptionAnswer = z.infer<typeof updateSubscriptionAnswer>;

/** POST /api/subscription/cancel: access stays until the period ends. */
export const cancelSubscriptionAnswer = z.object({ message: z.string(), cancelationDate: isoDateTime });
export type CancelSubscriptionAnswer = z.infer<typeof cancelSubscriptionAnswer>;

/** GET /api/subscription/status */
export const subscriptionStatusAnswer = subscriptionStatusSchema;
export type SubscriptionStatusAnswer = z.infer<typeof subscriptionStatusAnswer>;

/** POST /api/sync-subscription: re-reads the subscription from Stripe and fixes the user's plan. */
export const syncSubscriptionAnswer = z.object({
  planType: z.string(),
  message: z.string(),
  subscriptionStatus: z.string().nullable(),
});
export type SyncSubscriptionAnswer = z.infer<typeof syncSubscriptionAnswer>;

/** GET /api/payment-method: null when Stripe holds no default card. */
export const paymentMethodAnswer = paymentMethodSchema.nullable();
export type PaymentMethodAnswer = z.infer<typeof paymentMethodAnswer>;

/** POST /api/setup-intent */
export const setupIntentAnswer = z.object({ clientSecret: z.string() });
export type SetupIntentAnswer = z.infer<typeof setupIntentAnswer>;

/** POST /api/update-payment-method */
export const updatePaymentMethodBody = z.object({
  paymentMethodId: z
    .string({ error: 'Payment method id is required' })
    .trim()
    .regex(/^pm_\w+$/, 'Invalid payment method id')
    .max(255, 'Invalid payment method id'),
});
export type UpdatePaymentMethodBody = z.infer<typeof updatePaymentMethodBody>;
export const updatePaymentMethodAnswer = z.object({ message: z.string(), paymentMethod: paymentMethodSchema.nullable() });
export type UpdatePaymentMethodAnswer = z.infer<typeof updatePaymentMethodAnswer>;

/** GET /api/billing/invoices/{id}/pdf: an invoice's PDF, fetched by the server from Stripe for its owner. */
export const invoiceIdParams = z.object({
  id: z.string({ error: 'Invalid invoice id' }).regex(/^in_\w{1,250}$/, 'Invalid invoice id'),
});
export type InvoiceIdParams = z.infer<typeof invoiceIdParams>;
export const INVOICE_NOT_FOUND_MESSAGE = 'Invoice not found';
export const INVOICE_PDF_UNAVAILABLE_MESSAGE = 'The invoice PDF cannot be downloaded right now. Please open the invoice page instead.';

/** GET /api/billing/history: invoices of the past 18 months, newest first. */
export const billingHistoryAnswer = z.array(invoiceSchema);
export type BillingHistoryAnswer = z.infer<typeof billingHistoryAnswer>;
export const BILLING_HISTORY_MONTHS = 18;

export const SAME_PLAN_MESSAGE = 'You are already subscribed to this plan.';
export const NO_SUBSCRIPTION_MESSAGE = 'No active subscription found.';
export const PLAN_UPDATED_MESSAGE = 'Your subscription plan has been updated successfully.';
export const PAYMENTS_UNAVAILABLE_MESSAGE = 'Payments are unavailable right now. Please try again in a moment.';
export const PAID_PLAN_REQUIRED_MESSAGE = 'A payment method belongs to a paid plan. Choose a plan first.';
export const PAYMENT_METHOD_NOT_FOUND_MESSAGE = 'Payment method not found';
export const CARD_DECLINED_MESSAGE = 'Your card was declined.';
export const SUBSCRIPTION_SYNCED_MESSAGE = 'Your subscription status is up to date.';
export const INVALID_SIGNATURE_MESSAGE = 'Invalid Stripe signature';
export const INVALID_EVENT_MESSAGE = 'Invalid Stripe event';

/** GET /api/billing/config: what the card form needs to load Stripe.js (a key meant to be public). */
export const billingConfigAnswer = z.object({ publishableKey: z.string() });
export type BillingConfigAnswer = z.infer<typeof billingConfigAnswer>;

/** POST /api/webhooks/stripe: Stripe needs only a 2xx. */
export const stripeWebhookAnswer = z.object({ received: z.literal(true) });
export type StripeWebhookAnswer = z.infer<typeof stripeWebhookAnswer>;
