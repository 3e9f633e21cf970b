import { isIP } from 'node:net';
import type { MailTestFinding } from '@sendwell/contracts';
import { DnsServerError, DnsTimeoutError, type Resolver } from '../../dns/types.js';
import { parseIp, sameIp } from '../../checks/shared/ip.js';
import { finding } from '../finding.js';

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
/** `[192.0.2.1]` or `[IPv6:2001:db8::1]` (RFC 5321 §4.1.3). */
const ADDRESS_LITERAL = /^\[[^\]]*\]$/;

/** A fully qualified host name: two or more labels, a top-level label that is not all digits (RFC 5321 §2.3.5). */
export function isFullyQualified(name: string): boolean {
  const trimmed = name.endsWith('.') ? name.slice(0, -1) : name;
  if (trimmed.length === 0 || trimmed.length > 253) return false;
  const labels = trimmed.split('.');
  return labels.length >= 2 && labels.every((label) => LABEL.test(label)) && !/^\d+$/.test(labels.at(-1) as string);
}

/**
 * The EHLO name (RFC 5321 §4.1.1.1: the client's FQDN, or an address literal when it has none).
 * Receivers score a name that is not a host name, and note one that does not lead back to the client.
 */
export async function heloFindings(resolver: Resolver, helo: string, clientAddress: string): Promise<MailTestFinding[]> {
  if (ADDRESS_LITERAL.test(helo)) {
    return [
      finding('connection', {
        code: 'HELO_ADDRESS_LITERAL',
        severity: 'info',
        title: `The server introduced itself with an address (${helo.slice(0, 64)})`,
        explanation: 'An address literal is allowed, but receivers expect a sending server to greet with its host name, and some spam filters count a bare address against it.',
        fix: 'Configure the sending server to use its host name (the name its PTR record gives) in EHLO.',
        reference: 'RFC 5321 §4.1.1.1',
        points: 0,
      }),
    ];
  }
  if (!isFullyQualified(helo)) {
    return [
      finding('connection', {
        code: 'HELO_NOT_FQDN',
        severity: 'warning',
        title: `The server's greeting name "${helo.slice(0, 64)}" is not a host name`,
        explanation: 'EHLO must name the sending server by its fully qualified domain name. Names like "localhost" or a single word are a common mark of badly configured or compromised machines, and filters penalise them.',
        fix: 'Configure the sending server to use its fully qualified host name (e.g. mail.yourdomain.com) in EHLO.',
        reference: 'RFC 5321 §4.1.1.1',
        points: 0.5,
      }),
    ];
  }
  const client = parseIp(clientAddress);
  if (!client) return [];
  let addresses: string[];
  try {
    addresses = await resolver.lookup(helo, isIP(clientAddress) === 6 ? 'AAAA' : 'A', { shared: true });
  } catch (error) {
    if (error instanceof DnsTimeoutError || error instanceof DnsServerError) return [];
    throw error;
  }
  if (addresses.some((text) => { const ip = parseIp(text); return ip !== null && sameIp(ip, client); })) return [];
  return [
    finding('connection', {
      code: 'HELO_DOES_NOT_RESOLVE_TO_CLIENT',
      severity: 'info',
      title: `The greeting name ${helo} does not resolve to ${clientAddress}`,
      explanation:
        addresses.length === 0
          ? `${helo} has no address record. Receivers that compare the EHLO name with the connecting address cannot match them.`
          : `${helo} resolves to ${addresses.slice(0, 3).join(', ')}, not to the address the message came from. Some receivers compare the two.`,
      fix: `Use the sending server's own host name in EHLO, with an address record pointing at ${clientAddress}.`,
      reference: 'RFC 5321 §4.1.4',
      points: 0,
    }),
  ];
}
