import { expect } from 'vitest';
import type { Harness } from './fixtures.js';

/** A call to the Stripe stand-in with the secret key, in Stripe's wire format (form bodies, JSON answers). */
export async function stripeCall(h: Harness, method: 'GET' | 'POST', path: string, form?: Record<string, string>): Promise<Record<string, unknown>> {
  const { stripe, secretKey } = h.billing!;
  const res = await fetch(`${stripe.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
  });
  return (await res.json()) as Record<string, unknown>;
}

export const stripeGet = (h: Harness, path: string) => stripeCall(h, 'GET', path);

/** Pays for the standard plan as the web app does (billing's call, then Stripe.js's confirm), until billing records it. */
export async function subscribe(h: Harness, userId: number, token: string): Promise<{ customerId: string; subscriptionId: string }> {
  const res = await fetch(`${h.billing!.service.url}/api/subscription`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ plan: 'standard' }),
  });
  expect(res.status).toBe(200);
  const { clientSecret } = (await res.json()) as { clientSecret: string };
  const intent = clientSecret.split('_secret_')[0]!;
  expect(await stripeCall(h, 'POST', `/v1/payment_intents/${intent}/confirm`, { payment_method: 'pm_card_visa' })).toMatchObject({ status: 'succeeded' });
  await h.billing!.stripe.deliveries();
  const row = await h.db.selectFrom('users').select(['planType', 'stripeCustomerId', 'stripeSubscriptionId']).where('id', '=', userId).executeTakeFirstOrThrow();
  expect(row).toMatchObject({ planType: 'standard', stripeCustomerId: expect.any(String), stripeSubscriptionId: expect.any(String) });
  return { customerId: row.stripeCustomerId!, subscriptionId: row.stripeSubscriptionId! };
}
