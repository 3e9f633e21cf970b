import { domainLimit, domainLimitMessage, MANUAL_SCAN_COOLDOWN_MS, scanCooldownMessage } from '@sendwell/contracts';

/**
 * Pure rules of the domain calls: no I/O, so they are tested alone (domain-rules.test.ts).
 */

export type LimitDecision = { allowed: true } | { allowed: false; message: string; requiresUpgrade: boolean };

/**
 * Whether one more domain fits the plan. `counted` is active domains plus deletions still
 * restorable. Only the free and one-time plans carry `requiresUpgrade`: the web app answers that flag
 * with the free plan's "limited to 1 domain" text (part 1 §8), which would be wrong on a paid plan.
 */
export function addDomainDecision(plan: string, counted: number): LimitDecision {
  if (counted < domainLimit(plan)) return { allowed: true };
  return { allowed: false, message: domainLimitMessage(plan), requiresUpgrade: plan === 'free' || plan === 'onetime' };
}

/** Restoring keeps the count (the deletion already counted) but must not leave more active domains than the plan allows. */
export function restoreDecision(plan: string, activeCount: number): LimitDecision {
  if (activeCount < domainLimit(plan)) return { allowed: true };
  return { allowed: false, message: domainLimitMessage(plan), requiresUpgrade: plan === 'free' || plan === 'onetime' };
}

/** The 429 of a manual scan inside the cooldown: whole seconds, at least 1, and the message with minutes left. */
export function cooldownRefusal(retryAfterMs: number): { retryAfterSeconds: number; message: string } {
  const ms = Math.min(Math.max(retryAfterMs, 1), MANUAL_SCAN_COOLDOWN_MS);
  return { retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)), message: scanCooldownMessage(ms) };
}
