import { isIP } from 'node:net';
import type { Finding } from '@sendwell/contracts';
import { normaliseHostName as normaliseName } from '@sendwell/smtp-client';
import { isOutsideDomain } from '../../dns/shared-cache.js';
import type { Resolver } from '../../dns/types.js';
import { lookupAddresses } from '../outbound-targets.js';
import { parseIp, sameIp } from '../shared/ip.js';
import type { SmtpHostResult } from '../shared/mx-probe/host-result.js';

const HOST_NAME = /^(?=.{1,253}$)\w(?:[\w-]{0,61}\w)?(?:\.\w(?:[\w-]{0,61}\w)?)+$/;
const RFC = 'RFC 5321 §4.2';

/**
 * Whether the name in the 220 greeting (RFC 5321 §4.2: "220 " Domain / address-literal) belongs to
 * the address connected to: its A/AAAA records include it, or it is that address as a literal. Some
 * receivers compare it with the host's reverse DNS and name when they judge a server; a mismatch
 * behind a load balancer is common and harmless (info), a name that resolves nowhere is a warning.
 */
export async function checkGreetingName(resolver: Resolver, domain: string, result: SmtpHostResult): Promise<Finding | null> {
  const ip = result.ip;
  if (!result.greeted || ip === null) return null;
  const raw = result.greetingName;
  if (raw === null) return mismatch(result, 'warning', `the greeting (${result.banner}) names no host.`);
  // An address literal ("[192.0.2.1]", RFC 5321 §4.1.3), or a bare address some servers send instead.
  const literal = /^\[(?:IPv6:)?([^\]]+)\]$/i.exec(raw)?.[1] ?? (isIP(raw) !== 0 ? raw : undefined);
  if (literal !== undefined) {
    result.greetingNameMatches = isIP(literal) !== 0 && same(literal, ip);
    if (result.greetingNameMatches) return null;
    return mismatch(result, 'info', `the greeting names the address ${raw}, but the scanner connected to ${ip}.`);
  }
  const name = normaliseName(raw);
  if (!HOST_NAME.test(name)) {
    result.greetingNameMatches = false;
    return mismatch(result, 'warning', `the greeting names "${raw}", which is not a fully qualified host name (the MX host is ${result.exchange}).`);
  }
  const { addresses, error } = await lookupAddresses(resolver, name, { shared: isOutsideDomain(name, domain) });
  if (addresses.length === 0 && error !== null) return null;
  result.greetingNameMatches = addresses.some((address) => same(address, ip));
  if (result.greetingNameMatches) return null;
  if (addresses.length === 0) {
    return mismatch(result, 'warning', `the greeting names ${name}, which has no A or AAAA record (the MX host is ${result.exchange}, at ${ip}).`);
  }
  return mismatch(result, 'info', `the greeting names ${name}, whose addresses (${addresses.slice(0, 4).join(', ')}) do not include ${ip}, the address of ${result.exchange}.`);
}

function same(a: string, b: string): boolean {
  const left = parseIp(a);
  const right = parseIp(b);
  return left !== null && right !== null && sameIp(left, right);
}

function mismatch(result: SmtpHostResult, severity: Finding['severity'], message: string): Finding {
  return {
    code: 'SMTP_BANNER_NAME_MISMATCH',
    severity,
    message: `${result.exchange}: ${message}`,
    rfc: RFC,
    recommendation: `Make the server greet with its own fully qualified name, one whose A/AAAA record points at ${result.ip} (ideally ${result.exchange}, matching the address's PTR record).`,
    host: result.exchange,
    greetingName: result.greetingName,
  };
}
