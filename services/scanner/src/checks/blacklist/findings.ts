import { isIP } from 'node:net';
import type { Finding } from '@sendwell/contracts';
import type { MailHosts } from './mail-hosts.js';
import type { UnknownReason } from './query.js';
import type { IpResult, Listing, Tally, UnansweredList } from './tally.js';
import type { DnsblZone } from './zones.js';

/** The info finding for a list that could not give an answer, by why. */
const UNKNOWN_CODES: Record<UnknownReason, string> = {
  refused: 'BLACKLIST_QUERY_REFUSED',
  unexpected: 'BLACKLIST_UNEXPECTED_ANSWER',
  timeout: 'BLACKLIST_LIST_UNREACHABLE',
  servfail: 'BLACKLIST_LIST_UNREACHABLE',
  degraded: 'BLACKLIST_LIST_DEGRADED',
};

/** Listings first (in query order), then the lists that could not answer, then what limited the addresses checked. */
export function blacklistFindings(domain: string, hosts: MailHosts, tally: Tally): Finding[] {
  return [
    ...tally.listings.map((listing) =>
      listing.ip ? ipListedFinding(listing, listing.ip, (tally.ipResults.get(listing.ip) as IpResult).source) : domainListedFinding(listing, domain),
    ),
    ...[...tally.unanswered.values()].map(unansweredFinding),
    ...mailHostFindings(domain, hosts),
  ];
}

/**
 * A list as a message names it: "Name (zone, note)". A list reached with a key goes by its name alone:
 * its zone could only be shown redacted, which tells the reader nothing.
 */
function listName(zone: DnsblZone, note?: string): string {
  const inside = [zone.keyed ? null : zone.zone, note].filter(Boolean).join(', ');
  return inside ? `${zone.name} (${inside})` : zone.name;
}

/** "meaning — reason" for a finding's message, empty when the list gave neither. */
function listingDetail(listing: Listing): string {
  return [listing.meaning, listing.reason].filter(Boolean).join(' — ');
}

function ipListedFinding(listing: Listing, ip: string, source: string): Finding {
  const { zone, codes, reason, removalUrl } = listing;
  const detail = listingDetail(listing);
  return {
    code: 'BLACKLIST_IP_LISTED',
    severity: 'error',
    message: `${ip} (${source}) is listed on ${listName(zone, `answer ${codes.join(', ')}`)}${detail ? `: ${detail}` : ''}.`,
    rfc: isIP(ip) === 6 ? 'RFC 5782 §2.4' : 'RFC 5782 §2.1',
    recommendation: `Find and stop the cause (compromised account, open relay, bad list hygiene), then request removal${removalUrl ? ` at ${removalUrl}` : ` from ${zone.name}`}.`,
    ip,
    list: zone.name,
    zone: zone.zone,
    codes,
    reason,
    removalUrl,
  };
}

function domainListedFinding(listing: Listing, domain: string): Finding {
  const { zone, codes, reason, removalUrl } = listing;
  const detail = listingDetail(listing);
  return {
    code: 'BLACKLIST_DOMAIN_LISTED',
    severity: 'error',
    message: `${domain} is listed on ${listName(zone, `answer ${codes.join(', ')}`)}${detail ? `: ${detail}` : ''}.`,
    rfc: 'RFC 5782 §2.2',
    recommendation: `Check the domain's web site and mail for compromise or abuse, then request removal${removalUrl ? ` at ${removalUrl}` : ` from ${zone.name}`}.`,
    list: zone.name,
    zone: zone.zone,
    codes,
    reason,
    removalUrl,
  };
}

function unansweredFinding({ zone, text, count, reason }: UnansweredList): Finding {
  return {
    code: UNKNOWN_CODES[reason],
    severity: 'info',
    message: `${listName(zone)} could not be checked${count > 1 ? ` for ${count} queries` : ''}: ${text}. It is reported as unknown, not listed.`,
    rfc: reason === 'degraded' ? 'RFC 5782 §5' : 'RFC 5782 §2.1',
    recommendation:
      reason === 'refused' && (zone.access === 'free-registration' || zone.access === 'free-noncommercial')
        ? `Query ${zone.name} through a resolver it accepts${zone.note ? ` (${zone.note})` : ''}.`
        : reason === 'degraded'
          ? 'Nothing to do on your side: the list is used again as soon as it answers its test points correctly.'
          : 'Retry later; if it persists, the list may be blocking the scanner or out of service.',
    list: zone.name,
    zone: zone.zone,
  };
}

/** No address to check, and mail host lookups that failed. */
function mailHostFindings(domain: string, hosts: MailHosts): Finding[] {
  const findings: Finding[] = [];
  if (hosts.ips.size === 0) {
    findings.push({
      code: 'BLACKLIST_NO_MAIL_HOSTS',
      severity: 'info',
      message: hosts.nullMx
        ? `${domain} publishes a null MX (accepts no mail) and has no A/AAAA address, so no address was checked against IP block lists.`
        : `${domain} has no MX host or A/AAAA address that resolves, so no address was checked against IP block lists.`,
      rfc: hosts.nullMx ? 'RFC 7505 §3' : 'RFC 5321 §5.1',
      recommendation: hosts.lookupErrors.length > 0 ? 'The address lookups failed; the next scan retries them.' : 'Publish MX records for the hosts that receive mail for the domain.',
    });
  }
  if (hosts.lookupErrors.length > 0) {
    findings.push({
      code: 'BLACKLIST_HOST_LOOKUP_FAILED',
      severity: 'info',
      message: `Some mail host lookups failed, so their addresses were not checked: ${hosts.lookupErrors.join('; ')}.`,
      rfc: 'RFC 5321 §5.1',
      recommendation: 'Make sure every name server of the domain answers; the next scan retries.',
    });
  }
  return findings;
}
