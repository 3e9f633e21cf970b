import type { Finding } from '@sendwell/contracts';
import type { AddressResult } from './fcrdns.js';

function addressFinding(result: AddressResult, code: string, severity: Finding['severity'], message: string, rfc: string, recommendation?: string): Finding {
  return { code, severity, message: `${result.ip} (${result.source}): ${message}`, rfc, ...(recommendation ? { recommendation } : {}), ip: result.ip };
}

/** What one address's reverse DNS shows: missing, not confirmed, generic, private, or not checkable. */
export function addressFindings(result: AddressResult): Finding[] {
  const findings: Finding[] = [];
  if (result.private) {
    findings.push(
      addressFinding(
        result,
        'RDNS_PRIVATE_ADDRESS',
        'info',
        'a private or reserved address; it cannot send mail on the Internet, and its reverse DNS is not public.',
        'RFC 6890',
        'List only the public addresses your mail leaves from in the MX and SPF records.',
      ),
    );
  }
  switch (result.outcome) {
    case 'no-ptr':
      findings.push(
        addressFinding(
          result,
          'RDNS_MISSING',
          'warning',
          'the address has no PTR record. Many receivers reject or penalise mail from an address without reverse DNS.',
          'RFC 1912 §2.1',
          `Ask whoever runs ${result.ip} (your hosting or mail provider) to set its PTR record to the server's host name, a name whose A/AAAA record points back at ${result.ip}.`,
        ),
      );
      break;
    case 'not-confirmed': {
      const names = result.ptr.slice(0, 3).join(', ');
      findings.push(
        addressFinding(
          result,
          'RDNS_NOT_CONFIRMED',
          'warning',
          `the PTR record names ${names}, but ${result.ptr.length === 1 ? 'that name does' : 'none of these names does'} not resolve back to ${result.ip}. Receivers that check forward-confirmed reverse DNS (iprev) treat the address as failing.`,
          'RFC 8601 §3',
          `Point the A/AAAA record of ${result.ptr[0]} at ${result.ip}, or set the PTR record to a name that does resolve to it.`,
        ),
      );
      break;
    }
    case 'unknown':
      findings.push(addressFinding(result, 'RDNS_LOOKUP_FAILED', 'info', `the reverse DNS could not be checked (${result.error ?? 'DNS failure'}).`, 'RFC 8601 §3'));
      break;
    case 'confirmed':
      break;
  }
  if (result.generic) {
    const name = result.confirmedName ?? result.ptr[0];
    findings.push(
      addressFinding(
        result,
        'RDNS_GENERIC',
        'info',
        `the PTR name ${name} looks generic (it spells out the address or names a dynamic pool); receivers often score mail from such names as coming from a home connection.`,
        // No RFC covers generic names; the mail operators' (M3AAWG) sender practice does.
        'M3AAWG sender best practices',
        `Set the PTR record of ${result.ip} to a name of your own mail server, e.g. mail.<your domain>, with a matching A/AAAA record.`,
      ),
    );
  }
  return findings;
}
