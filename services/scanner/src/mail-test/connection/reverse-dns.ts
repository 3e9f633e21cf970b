import type { MailTestAnalysis, MailTestFinding } from '@sendwell/contracts';
import { checkAddress } from '../../checks/reverse-dns/fcrdns.js';
import type { Resolver } from '../../dns/types.js';
import { finding } from '../finding.js';

type ReverseDns = MailTestAnalysis['connection']['reverseDns'];

const GMAIL = 'Gmail sender guidelines';

/**
 * Forward-confirmed reverse DNS of the client (RFC 8601 §3 "iprev"), by the scanner's own check:
 * Gmail and Microsoft refuse or junk mail from an address without a PTR that resolves back to it.
 */
export async function readReverseDns(resolver: Resolver, clientAddress: string): Promise<{ value: ReverseDns; findings: MailTestFinding[] }> {
  const result = await checkAddress(resolver, { ip: clientAddress, source: 'SMTP client' }, false);
  const value: ReverseDns = { names: result.ptr, forwardConfirmed: result.forwardConfirmed, confirmedName: result.confirmedName };
  return { value, findings: reverseDnsFindings(clientAddress, result.outcome, result.ptr, result.error) };
}

function reverseDnsFindings(ip: string, outcome: 'confirmed' | 'no-ptr' | 'not-confirmed' | 'unknown', names: string[], error: string | null): MailTestFinding[] {
  switch (outcome) {
    case 'confirmed':
      return [];
    case 'no-ptr':
      return [
        finding('connection', {
          code: 'PTR_MISSING',
          severity: 'error',
          title: `The sending address ${ip} has no reverse DNS`,
          explanation: 'Receivers look up the name of the server that connects to them. Without a PTR record Gmail rejects or junks the mail, and most other providers count it against the sender.',
          fix: `Ask whoever runs ${ip} (your hosting or mail provider) to set its PTR record to the server's host name, a name whose A/AAAA record points back at ${ip}.`,
          reference: GMAIL,
          points: 1.5,
        }),
      ];
    case 'not-confirmed':
      return [
        finding('connection', {
          code: 'PTR_NOT_FORWARD_CONFIRMED',
          severity: 'warning',
          title: `The reverse DNS of ${ip} does not resolve back to it`,
          explanation: `The PTR record names ${names.slice(0, 3).join(', ')}, but no such name has an address record pointing back at ${ip}. Anyone can write any name into a PTR record, so receivers only trust one that is confirmed forward.`,
          fix: `Point the A/AAAA record of ${names[0] ?? 'the PTR name'} at ${ip}, or set the PTR record to a name that does resolve to it.`,
          reference: 'RFC 8601 §3',
          points: 1,
        }),
      ];
    case 'unknown':
      return [
        finding('connection', {
          code: 'PTR_LOOKUP_FAILED',
          severity: 'info',
          title: `The reverse DNS of ${ip} could not be checked`,
          explanation: `The lookup failed (${error ?? 'DNS failure'}); receivers whose lookup fails the same way may defer the mail.`,
          fix: null,
          reference: 'RFC 8601 §3',
          points: 0,
        }),
      ];
  }
}
