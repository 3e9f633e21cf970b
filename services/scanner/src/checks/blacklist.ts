import { isIP } from 'node:net';
import type { Finding } from '@sendwell/contracts';
import { isOutsideDomain } from '../dns/shared-cache.js';
import { DnsServerError, DnsTimeoutError, type Resolver } from '../dns/types.js';
import {
  DEFAULT_DNSBL_DOMAIN_ZONES,
  DEFAULT_DNSBL_IP_ZONES,
  dnsblZone,
  fillUrl,
  type DnsblKind,
  type DnsblZone,
} from './blacklist-zones.js';
import { classifyDnsblAnswer, dnsblReversedAddress, mapLimit } from './blacklist/dnsbl.js';
import type { Check, CheckResult } from './types.js';

/**
 * Blacklist check: the domain's mail hosts' and web addresses (IPv4 and IPv6) against DNS IP block
 * lists, and the domain itself against domain block lists, with RFC 5782 semantics.
 */

/** DNSBL questions in flight at once for one scan: enough to finish fast, few enough not to burst sockets. */
const MAX_CONCURRENT_QUERIES = 12;
/** Bounds on what one scan checks, so a domain with dozens of MX hosts cannot blow up the query count. */
const MAX_MX_HOSTS = 10;
const MAX_IPS = 16;

type SiteStatus = 'clean' | 'listed' | 'unknown';
type UnknownReason = 'refused' | 'unexpected' | 'timeout' | 'servfail';
type Outcome =
  | { status: 'clean' }
  | { status: 'listed'; codes: string[] }
  | { status: 'unknown'; reason: UnknownReason; codes: string[]; rcode?: string };

/** The info finding for a list that could not give an answer, by why. */
const UNKNOWN_CODES: Record<UnknownReason, string> = {
  refused: 'BLACKLIST_QUERY_REFUSED',
  unexpected: 'BLACKLIST_UNEXPECTED_ANSWER',
  timeout: 'BLACKLIST_LIST_UNREACHABLE',
  servfail: 'BLACKLIST_LIST_UNREACHABLE',
};

interface ListedService {
  service: string;
  zone: string;
  removalUrl: string | null;
  lookupUrl: string | null;
  codes: string[];
  meaning: string | null;
  reason: string | null;
}

interface IpResult {
  ip: string;
  clean: boolean;
  description: string;
  source: string;
  sources: string[];
  listedServices: ListedService[];
  unknownServices: string[];
}

interface Site {
  name: string;
  zone: string;
  kind: DnsblKind;
  status: SiteStatus;
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

function zonesFrom(configured: readonly string[], defaults: readonly string[], kind: DnsblKind): DnsblZone[] {
  const names = configured.length > 0 ? configured : defaults;
  const seen = new Set<string>();
  const zones: DnsblZone[] = [];
  for (const name of names) {
    const zone = dnsblZone(name, kind);
    if (zone.zone === '' || seen.has(zone.zone)) continue;
    seen.add(zone.zone);
    zones.push(zone);
  }
  return zones;
}

/**
 * IP-list questions are about an address, not the scanned domain: the many domains behind one
 * provider's mail servers share the answer through the shared cache, within its TTL.
 */
async function ask(resolver: Resolver, name: string, zone: DnsblZone): Promise<Outcome> {
  try {
    const response = await resolver.query(name, 'A', { shared: zone.kind === 'ip' });
    if (response.rcode === 'NXDOMAIN') return { status: 'clean' };
    if (response.rcode !== 'NOERROR') return { status: 'unknown', reason: 'servfail', codes: [], rcode: response.rcode };
    const verdict = classifyDnsblAnswer(zone, response.answers);
    if (verdict.status === 'refused') return { status: 'unknown', reason: verdict.reason, codes: verdict.codes };
    if (verdict.status === 'listed') return { status: 'listed', codes: verdict.codes };
    return { status: 'clean' };
  } catch (error) {
    if (error instanceof DnsTimeoutError) return { status: 'unknown', reason: 'timeout', codes: [] };
    throw error;
  }
}

/** The list's TXT reason for a listing (RFC 5782 §2.1: an optional TXT record with the reason). */
async function reasonOf(resolver: Resolver, name: string, shared: boolean): Promise<string | null> {
  try {
    const response = await resolver.query(name, 'TXT', { shared });
    return response.answers.length > 0 ? response.answers.join(' ') : null;
  } catch {
    return null;
  }
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
  }
}

interface MailHosts {
  ips: Map<string, string[]>;
  mxHosts: string[];
  nullMx: boolean;
  lookupErrors: string[];
}

async function addressesOf(resolver: Resolver, host: string, errors: string[], shared: boolean): Promise<string[]> {
  const found: string[] = [];
  await Promise.all(
    (['A', 'AAAA'] as const).map(async (type) => {
      try {
        for (const address of await resolver.lookup(host, type, { shared })) found.push(address);
      } catch (error) {
        if (error instanceof DnsTimeoutError || error instanceof DnsServerError) errors.push(`${type} ${host}: ${error.message}`);
        else throw error;
      }
    }),
  );
  return found;
}

/** The MX hosts' addresses and the domain's own A/AAAA, each with where it came from. */
async function collectHosts(resolver: Resolver, domain: string): Promise<MailHosts> {
  const lookupErrors: string[] = [];
  let mx: Array<{ exchange: string; priority: number }> = [];
  try {
    mx = await resolver.lookup(domain, 'MX');
  } catch (error) {
    if (error instanceof DnsTimeoutError || error instanceof DnsServerError) lookupErrors.push(`MX ${domain}: ${error.message}`);
    else throw error;
  }
  // A null MX (RFC 7505 §3: one MX with exchange ".") says the domain accepts no mail.
  const nullMx = mx.length === 1 && (mx[0]?.exchange === '' || mx[0]?.exchange === '.');
  const mxHosts = nullMx
    ? []
    : [...new Set(mx.sort((a, b) => a.priority - b.priority).map((record) => record.exchange))]
        .filter((exchange) => exchange !== '')
        .slice(0, MAX_MX_HOSTS);

  const ips = new Map<string, string[]>();
  const add = (address: string, source: string): void => {
    if (isIP(address) === 0) return;
    const sources = ips.get(address);
    if (sources) sources.push(source);
    else if (ips.size < MAX_IPS) ips.set(address, [source]);
  };
  const [mxAddresses, ownAddresses] = await Promise.all([
    // Another organisation's mail host (a provider's) is shared; the domain's own hosts are not.
    Promise.all(mxHosts.map((host) => addressesOf(resolver, host, lookupErrors, isOutsideDomain(host, domain)))),
    addressesOf(resolver, domain, lookupErrors, false),
  ]);
  mxHosts.forEach((host, index) => {
    for (const address of mxAddresses[index] ?? []) add(address, `MX ${host}`);
  });
  for (const address of ownAddresses) add(address, `${isIP(address) === 6 ? 'AAAA' : 'A'} ${domain}`);
  return { ips, mxHosts, nullMx, lookupErrors };
}

export const blacklistCheck: Check = async (ctx): Promise<CheckResult> => {
  const { domain, resolver, config } = ctx;
  const ipZones = zonesFrom(config.dnsblIpZones, DEFAULT_DNSBL_IP_ZONES, 'ip');
  const domainZones = zonesFrom(config.dnsblDomainZones, DEFAULT_DNSBL_DOMAIN_ZONES, 'domain');
  const hosts = await collectHosts(resolver, domain);
  const ipList = [...hosts.ips.keys()];

  interface Job {
    zone: DnsblZone;
    ip: string | null;
    name: string;
  }
  const jobs: Job[] = [];
  for (const address of ipList) {
    const v6 = isIP(address) === 6;
    const reversed = dnsblReversedAddress(address);
    if (reversed === null) continue;
    for (const zone of ipZones) {
      if (v6 && !zone.ipv6) continue;
      jobs.push({ zone, ip: address, name: `${reversed}${zone.zone}` });
    }
  }
  for (const zone of domainZones) jobs.push({ zone, ip: null, name: `${domain}.${zone.zone}` });

  const outcomes = await mapLimit(jobs, MAX_CONCURRENT_QUERIES, async (job) => {
    const outcome = await ask(resolver, job.name, job.zone);
    const reason = outcome.status === 'listed' ? await reasonOf(resolver, job.name, job.zone.kind === 'ip') : null;
    return { outcome, reason };
  });

  const findings: Finding[] = [];
  const ipResults = new Map<string, IpResult>(
    ipList.map((address) => {
      const sources = hosts.ips.get(address) ?? [];
      return [address, { ip: address, clean: true, description: '', source: sources.join(', '), sources, listedServices: [], unknownServices: [] }];
    }),
  );
  const sites = new Map<string, Site>();
  for (const zone of [...ipZones, ...domainZones]) {
    const subject = zone.kind === 'ip' ? (ipList[0] ?? null) : domain;
    sites.set(`${zone.kind} ${zone.zone}`, {
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
  const domainListings: DomainListing[] = [];
  const refusedByZone = new Map<string, { zone: DnsblZone; text: string; count: number; reason: UnknownReason }>();
  let answered = 0;

  jobs.forEach((job, index) => {
    const { outcome, reason } = outcomes[index] as { outcome: Outcome; reason: string | null };
    const site = sites.get(`${job.zone.kind} ${job.zone.zone}`) as Site;
    if (outcome.status === 'unknown') {
      const text = unknownText(job.zone, outcome);
      const seen = refusedByZone.get(job.zone.zone);
      if (seen) seen.count++;
      else refusedByZone.set(job.zone.zone, { zone: job.zone, text, count: 1, reason: outcome.reason });
      if (site.status === 'clean') site.status = 'unknown';
      site.unknownReason ??= text;
      if (job.ip) ipResults.get(job.ip)?.unknownServices.push(job.zone.name);
      return;
    }
    answered++;
    if (outcome.status === 'clean') return;

    site.status = 'listed';
    const meaning = meaningOf(job.zone, outcome.codes);
    const detail = [meaning, reason].filter(Boolean).join(' — ');
    if (job.ip) {
      const lookupUrl = fillUrl(job.zone.lookupUrlTemplate, job.ip);
      const removalUrl = fillUrl(job.zone.removalUrl, job.ip);
      if (site.listedIps.length === 0) {
        site.lookupUrl = lookupUrl;
        site.removalUrl = removalUrl;
      }
      site.listedIps.push(job.ip);
      const result = ipResults.get(job.ip) as IpResult;
      result.clean = false;
      result.listedServices.push({
        service: job.zone.name,
        zone: job.zone.zone,
        removalUrl,
        lookupUrl,
        codes: outcome.codes,
        meaning,
        reason,
      });
      findings.push({
        code: 'BLACKLIST_IP_LISTED',
        severity: 'error',
        message: `${job.ip} (${result.source}) is listed on ${job.zone.name} (${job.zone.zone}, answer ${outcome.codes.join(', ')})${detail ? `: ${detail}` : ''}.`,
        rfc: isIP(job.ip) === 6 ? 'RFC 5782 §2.4' : 'RFC 5782 §2.1',
        recommendation: `Find and stop the cause (compromised account, open relay, bad list hygiene), then request removal${removalUrl ? ` at ${removalUrl}` : ` from ${job.zone.name}`}.`,
        ip: job.ip,
        list: job.zone.name,
        zone: job.zone.zone,
        codes: outcome.codes,
        reason,
        removalUrl,
      });
    } else {
      const lookupUrl = fillUrl(job.zone.lookupUrlTemplate, domain);
      const removalUrl = fillUrl(job.zone.removalUrl, domain);
      domainListings.push({ service: job.zone.name, zone: job.zone.zone, domain, codes: outcome.codes, meaning, reason, lookupUrl, removalUrl });
      findings.push({
        code: 'BLACKLIST_DOMAIN_LISTED',
        severity: 'error',
        message: `${domain} is listed on ${job.zone.name} (${job.zone.zone}, answer ${outcome.codes.join(', ')})${detail ? `: ${detail}` : ''}.`,
        rfc: 'RFC 5782 §2.2',
        recommendation: `Check the domain's web site and mail for compromise or abuse, then request removal${removalUrl ? ` at ${removalUrl}` : ` from ${job.zone.name}`}.`,
        list: job.zone.name,
        zone: job.zone.zone,
        codes: outcome.codes,
        reason,
        removalUrl,
      });
    }
  });

  for (const { zone, text, count, reason } of refusedByZone.values()) {
    findings.push({
      code: UNKNOWN_CODES[reason],
      severity: 'info',
      message: `${zone.name} (${zone.zone}) could not be checked${count > 1 ? ` for ${count} queries` : ''}: ${text}. It is reported as unknown, not listed.`,
      rfc: 'RFC 5782 §2.1',
      recommendation:
        reason === 'refused' && (zone.access === 'free-registration' || zone.access === 'free-noncommercial')
          ? `Query ${zone.name} through a resolver it accepts${zone.note ? ` (${zone.note})` : ''}.`
          : 'Retry later; if it persists, the list may be blocking the scanner or out of service.',
      list: zone.name,
      zone: zone.zone,
    });
  }

  if (ipList.length === 0) {
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

  const allIpResults = [...ipResults.values()].map((result) => ({
    ...result,
    description: result.clean
      ? result.unknownServices.length > 0
        ? `Not listed on the lists that answered; ${result.unknownServices.length} could not be checked.`
        : 'Not listed on any checked list.'
      : `Listed on ${result.listedServices.map((s) => s.service).join(', ')}.`,
  }));
  const listedIpsCount = allIpResults.filter((result) => !result.clean).length;
  const siteList = [...sites.values()];
  const listedSites = siteList.filter((site) => site.status === 'listed');
  const listingCount = listedSites.length;
  const everyQueryFailed = jobs.length > 0 && answered === 0;
  const hostLookupFailedEntirely = ipList.length === 0 && hosts.lookupErrors.length > 0;

  let status: CheckResult['status'];
  let message: string;
  let value: string | null;
  let error: string | null = null;
  let recommendation: string | null = null;
  if (listingCount > 0) {
    status = 'error';
    const names = listedSites.map((site) => site.name);
    value = `Listed on ${listingCount} of ${siteList.length} lists`;
    message = `Listed on ${listingCount} block list${listingCount === 1 ? '' : 's'}: ${names.slice(0, 3).join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''}.`;
    recommendation = 'Fix the cause of the listing (compromised account, open relay, purchased lists), then request removal from each list using its removal link.';
  } else if (everyQueryFailed || hostLookupFailedEntirely) {
    // No address could be collected because DNS failed: the IP lists were never asked.
    status = 'unknown';
    value = null;
    error = everyQueryFailed ? 'Every block list query failed or was refused.' : 'The mail host lookups failed.';
    message = `The blacklist status could not be determined: ${error.charAt(0).toLowerCase()}${error.slice(1)}`;
  } else {
    status = 'valid';
    const unknownSites = siteList.filter((site) => site.status === 'unknown').length;
    value = `Clean on ${siteList.length - unknownSites} of ${siteList.length} lists`;
    message =
      unknownSites > 0
        ? `Not listed on any block list that answered (${unknownSites} of ${siteList.length} could not be checked).`
        : `Not listed on any of the ${siteList.length} block lists checked.`;
  }

  return {
    type: 'blacklist',
    status,
    value,
    message,
    recommendation,
    details: {
      sites: siteList,
      totalIpsChecked: allIpResults.length,
      cleanIps: allIpResults.length - listedIpsCount,
      listedIpsCount,
      allIpResults,
      domainListings,
      mxHosts: hosts.mxHosts,
      nullMx: hosts.nullMx,
      listsChecked: siteList.length,
      queriesSent: jobs.length,
      error,
      recommendation,
      findings,
    },
  };
};
