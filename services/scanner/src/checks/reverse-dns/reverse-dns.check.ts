import type { ReverseDnsDetails } from '@sendwell/contracts';
import { vetAddresses } from '../outbound-targets.js';
import type { Check, CheckResult } from '../types.js';
import { checkAddress } from './fcrdns.js';
import { addressFindings } from './findings.js';
import { collectSendingAddresses } from './sending-addresses.js';
import { noAddressVerdict, reverseDnsVerdict } from './verdict.js';

/**
 * Reverse DNS check (RFC 1912 §2.1, RFC 8601 §3 "iprev"): each sending address — the MX hosts' and
 * the single addresses of the domain's SPF record — should have a PTR record whose name resolves back
 * to it (forward-confirmed reverse DNS), as receivers check before trusting a connecting server.
 * Only DNS is asked: a private address is looked up like any other (no connection is made) and
 * reported as such.
 */
export const reverseDnsCheck: Check<'reverse_dns'> = async ({ domain, resolver, config }): Promise<CheckResult<ReverseDnsDetails>> => {
  const collected = await collectSendingAddresses(resolver, domain);
  if (collected.addresses.length === 0) return noAddressVerdict(domain, collected);
  const { refused } = vetAddresses(
    collected.addresses.map((address) => address.ip),
    config.outbound,
  );
  const privateIps = new Set(refused.map((target) => target.address));
  const results = await Promise.all(collected.addresses.map((address) => checkAddress(resolver, address, privateIps.has(address.ip))));
  return reverseDnsVerdict(domain, collected, results, results.flatMap(addressFindings));
};
