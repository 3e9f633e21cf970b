import type { CheckContext } from '../../types.js';
import { ROOT_TRUST_ANCHORS } from './trust-anchor.js';
import { DnssecValidator } from './validator.js';

/**
 * The scan's DNSSEC validator, anchored on the configured trust anchors (SCAN_DNSSEC_TRUST_ANCHOR) or
 * the root's: made by the first check that asks and kept in the scan's memo, so the DNSSEC and DANE
 * checks, which run at the same time, share its walks and its validated answers. Without a memo (a
 * check run alone) each call makes a new one.
 */
export function scanValidator({ domain, resolver, config, memo }: CheckContext): DnssecValidator {
  const make = () => new DnssecValidator({ resolver, domain, trustAnchors: config.dnssecTrustAnchors ?? ROOT_TRUST_ANCHORS, now: Date.now() });
  if (!memo) return make();
  memo.dnssecValidator ??= make();
  return memo.dnssecValidator;
}
