import { addressRefusal, nameRefusal, type OutboundPolicy } from '@sendwell/server-kit';

/**
 * The outbound guard as the checks use it: addresses read from the domain's DNS are split into those
 * a check may connect to and those it must not (private, loopback, reserved …), so a domain pointed
 * at our own network is reported as a finding instead of probed. Checks connect to the vetted IP
 * itself, never to the name again (a second resolution could answer differently: DNS rebinding).
 */

export interface RefusedTarget {
  address: string;
  /** In words, e.g. "loopback", "private network". */
  reason: string;
}

export function vetAddresses(addresses: readonly string[], policy: OutboundPolicy): { allowed: string[]; refused: RefusedTarget[] } {
  const allowed: string[] = [];
  const refused: RefusedTarget[] = [];
  for (const address of addresses) {
    const reason = addressRefusal(address, policy);
    if (reason === null) allowed.push(address);
    else refused.push({ address, reason });
  }
  return { allowed, refused };
}

/** A host name that is refused before any lookup (localhost, *.local, *.internal …), as a refused target. */
export function refusedName(host: string): RefusedTarget | null {
  const reason = nameRefusal(host);
  return reason === null ? null : { address: host, reason };
}

/** "a private address (loopback)", or "private addresses (loopback; private network)" for several. */
export function describeRefused(refused: readonly RefusedTarget[]): string {
  const reasons = [...new Set(refused.map((target) => target.reason))].join('; ');
  return `${refused.length === 1 ? 'a private address' : 'private addresses'} (${reasons})`;
}
