import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TOLERANCE_SECONDS } from '@sendwell/contracts';
import type { OutboundHttp } from '@sendwell/server-kit';
import { webhookPayload, type AlertMessage } from '../alert-message.js';
import { expectSuccess } from './answer.js';

/** A new endpoint's signing secret: 32 random bytes, prefixed like Stripe's so it is recognisable in a vault. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

const hmac = (secret: string, timestamp: number, body: string) => createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, the header value of one delivery attempt. */
export function webhookSignature(secret: string, body: string, now: Date): string {
  const t = Math.floor(now.getTime() / 1000);
  return `t=${t},v1=${hmac(secret, t, body)}`;
}

/** What a receiver does (and the README shows): recompute, compare in constant time, refuse old timestamps. */
export function verifyWebhookSignature(secret: string, body: string, header: string, now: Date, toleranceSeconds = WEBHOOK_TOLERANCE_SECONDS): boolean {
  const parts = new Map(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1') ?? '';
  if (!Number.isInteger(t) || Math.abs(now.getTime() / 1000 - t) > toleranceSeconds) return false;
  const expected = Buffer.from(hmac(secret, t, body), 'hex');
  const given = Buffer.from(v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A custom webhook: the documented JSON body, signed with the endpoint's secret, the event id as idempotency key. */
export async function deliverWebhook(http: OutboundHttp, url: string, secret: string, message: AlertMessage, now: Date): Promise<void> {
  const body = JSON.stringify(webhookPayload(message, now));
  const answer = await http.post(url, body, { [WEBHOOK_SIGNATURE_HEADER.toLowerCase()]: webhookSignature(secret, body, now), 'idempotency-key': message.eventId });
  expectSuccess(answer, 'The webhook endpoint');
}

/** Zapier's catch hook takes the same documented body (unsigned: a Zap cannot check a signature). */
export async function deliverZapier(http: OutboundHttp, url: string, message: AlertMessage, now: Date): Promise<void> {
  expectSuccess(await http.post(url, JSON.stringify(webhookPayload(message, now)), { 'idempotency-key': message.eventId }), 'Zapier');
}
