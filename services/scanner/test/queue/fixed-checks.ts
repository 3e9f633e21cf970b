import { checkTypes, type CheckType } from '@sendwell/contracts';
import type { Check } from '../../src/checks/types.js';

/**
 * For the queue-mechanics tests only (dedup, kill and retry, two workers, shutdown, scheduler): every
 * check answers a fixed `valid` result after `delayMs`, checking nothing; with `blockMs`, one of them
 * then blocks the event loop that long, as a CPU-bound scan on a loaded machine would. What the checks find is
 * tested with the real check modules against the fixture DNS and TLS servers, never with this.
 */
export function fixedChecksForQueueTests(delayMs = 0, blockMs = 0): Record<CheckType, Check> {
  const fixed = (type: CheckType): Check => async () => {
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    // A CPU-bound stretch: the event loop does nothing else (lock renewals included) meanwhile.
    if (blockMs > 0 && type === 'spf') for (const until = Date.now() + blockMs; Date.now() < until; );
    return {
      type,
      status: type === 'dns_performance' ? 'success' : 'valid',
      value: null,
      message: 'fixed result for queue tests',
      recommendation: null,
      details: { findings: [] },
    };
  };
  return Object.fromEntries(checkTypes.map((t) => [t, fixed(t)])) as Record<CheckType, Check>;
}
