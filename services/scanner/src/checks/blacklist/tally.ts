import type { MailHosts } from './mail-hosts.js';
import type { DnsblQuery } from './plan.js';
import type { DnsblAnswer, Outcome, UnknownReason } from './query.js';
import { fillUrl, type DnsblKind, type DnsblZone } from './zones.js';

/**
 * The answers sorted into what the details show: per address, per list, per domain listing, and
 * the lists that could not answer.
 */

interface ListedService extends Record<string, unknown> {
  service: string;
  zone: string;
  removalUrl: string | null;
  lookupUrl: string | null;
  codes: string[];
  meaning: string | null;
  reason: string | null;
}

export interface IpResult extends Record<string, unknown> {
  ip: string;
  clean: boolean;
  description: string;
  source: string;
  sources: string[];
  listedServices: ListedService[];
  unknownServices: string[];
}

export interface Site extends Record<string, unknown> {
  name: string;
  zone: string;
  kind: DnsblKind;
  status: 'clean' | 'listed' | 'unknown';
  url: string | null;
  lookupUrl: string | null;
  removalUrl: string | null;
  description: string;
  access: DnsblZone['access'];
  note: string | null;
  listedIps: string[];
  unknownReason: string | null;
}

interface DomainListing {
  service: string;
  zone: string;
  domain: string;
  codes: string[];
  meaning: string | null;
  reason: string | null;
  lookupUrl: string | null;
  removalUrl: string | null;
}

/** A list that could not answer: one per zone, however many of its queries failed. */
export interface UnansweredList {
  zone: DnsblZone;
  text: string;
  count: number;
  reason: UnknownReason;
}

/** One list listing one address (`ip`) or the domain (`ip` null). */
export interface Listing {
  zone: DnsblZone;
  ip: string | null;
  codes: string[];
  meaning: string | null;
  reason: string | null;
  lookupUrl: string | null;
  removalUrl: string | null;
}

export interface Tally {
  ipResults: Map<string, IpResult>;
  /** Keyed by kind and zone (`siteKey`), in the order of the lists. */
  sites: Map<string, Site>;
  domainListings: DomainListing[];
  /** In query order, which is the order of the listing findings. */
  listings: Listing[];
  /** Keyed by zone, in the order of their first failed query. */
  unanswered: Map<string, UnansweredList>;
  /** Queries a list answered, clean or listed. */
  answered: number;
}

export function tallyAnswers(
  domain: string,
  hosts: MailHosts,
  zones: readonly DnsblZone[],
  queries: readonly DnsblQuery[],
  answers: readonly DnsblAnswer[],
): Tally {
  const tally: Tally = {
    ipResults: newIpResults(hosts),
    sites: newSites(zones, [...hosts.ips.keys()][0] ?? null, domain),
    domainListings: [],
    listings: [],
    unanswered: new Map(),
    answered: 0,
  };
  queries.forEach((query, index) => {
    const { outcome, reason } = answers[index] as DnsblAnswer;
    const site = tally.sites.get(siteKey(query.zone)) as Site;
    if (outcome.status === 'unknown') {
      recordUnanswered(tally, site, query, outcome);
      return;
    }
    tally.answered++;
    if (outcome.status === 'listed') recordListing(tally, site, query, outcome.codes, reason, domain);
  });
  return tally;
}

function siteKey(zone: DnsblZone): string {
  return `${zone.kind} ${zone.zone}`;
}

function newIpResults(hosts: MailHosts): Map<string, IpResult> {
  return new Map(
    [...hosts.ips].map(([address, sources]) => [
      address,
      { ip: address, clean: true, description: '', source: sources.join(', '), sources, listedServices: [], unknownServices: [] },
    ]),
  );
}

/** Every list as clean until an answer says otherwise; `firstIp` null when no address was found. */
function newSites(zones: readonly DnsblZone[], firstIp: string | null, domain: string): Map<string, Site> {
  const sites = new Map<string, Site>();
  for (const zone of zones) {
    const subject = zone.kind === 'ip' ? firstIp : domain;
    sites.set(siteKey(zone), {
      name: zone.name,
      zone: zone.zone,
      kind: zone.kind,
      status: 'clean',
      url: zone.url,
      // IP lists' links point at the first address checked (the card shows one link per list).
      lookupUrl: subject === null ? zone.url : fillUrl(zone.lookupUrlTemplate, subject),
      removalUrl: subject === null ? (zone.removalUrl?.includes('{') ? zone.url : zone.removalUrl) : fillUrl(zone.removalUrl, subject),
      description: zone.note ? `${zone.description} ${zone.note}` : zone.description,
      access: zone.access,
      note: zone.note ?? null,
      listedIps: [],
      unknownReason: null,
    });
  }
  return sites;
}

function recordUnanswered(tally: Tally, site: Site, query: DnsblQuery, outcome: Extract<Outcome, { status: 'unknown' }>): void {
  const text = unknownText(query.zone, outcome);
  const seen = tally.unanswered.get(query.zone.zone);
  if (seen) seen.count++;
  else tally.unanswered.set(query.zone.zone, { zone: query.zone, text, count: 1, reason: outcome.reason });
  if (site.status === 'clean') site.status = 'unknown';
  site.unknownReason ??= text;
  if (query.ip) tally.ipResults.get(query.ip)?.unknownServices.push(query.zone.name);
}

function recordListing(tally: Tally, site: Site, query: DnsblQuery, codes: string[], reason: string | null, domain: string): void {
  const { zone, ip } = query;
  const subject = ip ?? domain;
  const listing: Listing = {
    zone,
    ip,
    codes,
    meaning: meaningOf(zone, codes),
    reason,
    lookupUrl: fillUrl(zone.lookupUrlTemplate, subject),
    removalUrl: fillUrl(zone.removalUrl, subject),
  };
  site.status = 'listed';
  tally.listings.push(listing);
  if (ip) recordIpListing(tally, site, listing, ip);
  else tally.domainListings.push({ service: zone.name, zone: zone.zone, domain, codes, meaning: listing.meaning, reason, lookupUrl: listing.lookupUrl, removalUrl: listing.removalUrl });
}

function recordIpListing(tally: Tally, site: Site, listing: Listing, ip: string): void {
  const { zone, codes, meaning, reason, lookupUrl, removalUrl } = listing;
  if (site.listedIps.length === 0) {
    site.lookupUrl = lookupUrl;
    site.removalUrl = removalUrl;
  }
  site.listedIps.push(ip);
  const result = tally.ipResults.get(ip) as IpResult;
  result.clean = false;
  result.listedServices.push({ service: zone.name, zone: zone.zone, removalUrl, lookupUrl, codes, meaning, reason });
}

function meaningOf(zone: DnsblZone, codes: readonly string[]): string | null {
  if (!zone.codeMeanings) return null;
  const meanings = codes.map((code) => zone.codeMeanings?.[code]).filter((m): m is string => m !== undefined);
  return meanings.length > 0 ? meanings.join('; ') : null;
}

function unknownText(zone: DnsblZone, outcome: Extract<Outcome, { status: 'unknown' }>): string {
  switch (outcome.reason) {
    case 'refused':
      return meaningOf(zone, outcome.codes) ?? `the list refused the query (answer ${outcome.codes.join(', ')})`;
    case 'unexpected':
      return `the list answered ${outcome.codes.join(', ')}, outside 127.0.0.0/8, so the answer cannot be trusted`;
    case 'timeout':
      return 'the list did not answer in time';
    case 'servfail':
      return `the list's DNS answered ${outcome.rcode ?? 'with an error'}`;
    case 'degraded':
      return `the list fails its own test points (${outcome.detail ?? 'degraded'}), so its answers are not used until it recovers`;
  }
}
