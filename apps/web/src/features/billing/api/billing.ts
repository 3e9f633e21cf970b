import type {
  BillingConfigAnswer,
  BillingHistoryAnswer,
  CreateSubscriptionAnswer,
  PaidPlan,
  SetupIntentAnswer,
  UpdatePaymentMethodAnswer,
  UpdateSubscriptionAnswer,
} from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, requestHeaders } from '@/lib/api-client';

/** GET /api/billing/config: the publishable key Stripe.js loads with (it differs per deployment). */
export function billingConfigQueryOptions() {
  return queryOptions({ queryKey: ['/api/billing/config'], queryFn: () => api.get<BillingConfigAnswer>('/api/billing/config'), staleTime: Infinity });
}
export const useBillingConfig = () => useQuery(billingConfigQueryOptions());

/** POST /api/subscription {plan}: a client secret for a new subscription, or `{type, subscriptionId}` for a change. */
export const createSubscription = (plan: PaidPlan) => api.post<CreateSubscriptionAnswer>('/api/subscription', { plan });

/** POST /api/subscription/update {plan}: after a payment (the server re-reads Stripe) or a plan change. */
export const updateSubscription = (plan: PaidPlan) => api.post<UpdateSubscriptionAnswer>('/api/subscription/update', { plan });

/** POST /api/setup-intent: the client secret the card form confirms a new card with. */
export const createSetupIntent = () => api.post<SetupIntentAnswer>('/api/setup-intent');

/** POST /api/update-payment-method {paymentMethodId} */
export const updatePaymentMethod = (paymentMethodId: string) => api.post<UpdatePaymentMethodAnswer>('/api/update-payment-method', { paymentMethodId });

/** GET /api/billing/history: one retry, fresh for 5 minutes (part 2 §7). */
export function billingHistoryQueryOptions() {
  return queryOptions({
    queryKey: ['/api/billing/history'],
    queryFn: () => api.get<BillingHistoryAnswer>('/api/billing/history'),
    retry: 1,
    staleTime: 5 * 60_000,
  });
}
export const useBillingHistory = () => useQuery(billingHistoryQueryOptions());

/** GET /api/billing/invoices/{id}/pdf: the PDF as a file (the server fetches it from Stripe for its owner). */
export async function downloadInvoicePdf(invoiceId: string): Promise<Blob> {
  const res = await fetch(`/api/billing/invoices/${encodeURIComponent(invoiceId)}/pdf`, { credentials: 'include', headers: requestHeaders(false) });
  if (!res.ok) throw new Error(`${res.status}: the invoice could not be downloaded`);
  return res.blob();
}
