import { createHmac } from 'node:crypto';

/** Stripe's `Stripe-Signature` header: HMAC-SHA256 of `${t}.${payload}` keyed by the endpoint secret. */
export function signPayload(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/** POSTs one event, retrying on errors and non-2xx answers as Stripe does (here quickly, a few times). */
export async function deliver(url: string, secret: string, payload: string, attempts = 4): Promise<boolean> {
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(payload, secret) },
        body: payload,
      });
      if (res.ok) return true;
    } catch {
      // The receiver is down or restarting: retry below.
    }
    await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
  }
  return false;
}
