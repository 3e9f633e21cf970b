import type tls from 'node:tls';
import type { OutboundPolicy } from '@sendwell/server-kit';
import type { Resolver } from '../../dns/types.js';
import { lookupAddresses, refusedName, vetAddresses } from '../outbound-targets.js';
import { inspect } from './certificate.js';
import { connectionFindings, refusedFinding } from './findings.js';
import { handshake } from './handshake.js';
import { emptyHost, type HostResult } from './host-result.js';

/** Addresses tried per host name before giving up (A first, then AAAA). */
const MAX_ADDRESSES_PER_HOST = 2;

export interface HostConfig {
  port: number;
  timeoutMs: number;
  outbound: OutboundPolicy;
}

/** One host name: its addresses, the outbound guard, a handshake with the first vetted address that answers, and its findings. */
export async function checkHost(
  resolver: Resolver,
  host: string,
  role: HostResult['role'],
  config: HostConfig,
  context: tls.SecureContext | undefined,
  now: number,
): Promise<HostResult> {
  const result = emptyHost(host, role, config.port);
  const badName = refusedName(host);
  if (badName) {
    result.refused = [badName];
    result.findings.push(refusedFinding(result));
    return result;
  }
  const resolved = await lookupAddresses(resolver, host);
  if (resolved.addresses.length === 0) {
    if (resolved.error) result.dnsError = resolved.error;
    else result.noAddress = true;
    return result;
  }
  const { allowed, refused } = vetAddresses(resolved.addresses, config.outbound);
  result.refused = refused;
  if (refused.length > 0) result.findings.push(refusedFinding(result));
  if (allowed.length === 0) return result;
  await connectFirstAnswering(result, allowed, config, context, now);
  result.findings.push(...connectionFindings(result, now));
  return result;
}

/** Tries up to MAX_ADDRESSES_PER_HOST addresses; `result` keeps the last one tried and its error, or what the answering one showed. */
async function connectFirstAnswering(result: HostResult, allowed: readonly string[], config: HostConfig, context: tls.SecureContext | undefined, now: number): Promise<void> {
  // The vetted IP itself is dialled (the name is only the SNI), so DNS cannot answer differently now.
  for (const address of allowed.slice(0, MAX_ADDRESSES_PER_HOST)) {
    result.address = address;
    const attempt = await handshake(address, result.host, config.port, config.timeoutMs, context);
    if (attempt.socket) {
      result.error = null;
      inspect(result, attempt.socket, now);
      return;
    }
    result.error = attempt.error;
    result.errorCode = attempt.errorCode ?? null;
  }
}
