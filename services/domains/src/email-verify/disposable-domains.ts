import { disposableEmailBlocklistSet } from 'disposable-email-domains-js';

/**
 * Disposable (throw-away) mailbox providers, from `disposable-email-domains-js`: the community
 * disposable-email-domains blocklist, republished to npm as it changes (CC0). Loaded once.
 */
let blocklist: Set<string> | null = null;

/** True for a listed domain or any name below one (`x.mailinator.com`). */
export function isDisposableDomain(asciiDomain: string): boolean {
  blocklist ??= disposableEmailBlocklistSet();
  const labels = asciiDomain.toLowerCase().split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    if (blocklist.has(labels.slice(i).join('.'))) return true;
  }
  return false;
}
