import type { BlacklistDetails } from '@sendwell/contracts';
import type { Check, CheckResult } from '../types.js';
import { blacklistFindings } from './findings.js';
import { collectHosts } from './mail-hosts.js';
import { planQueries, zonesFrom } from './plan.js';
import { askLists } from './query.js';
import { tallyAnswers } from './tally.js';
import { blacklistVerdict, describeIpResults } from './verdict.js';
import { DEFAULT_DNSBL_DOMAIN_ZONES, DEFAULT_DNSBL_IP_ZONES } from './zones.js';

/**
 * Blacklist check: the domain's mail hosts' and web addresses (IPv4 and IPv6) against DNS IP block
 * lists, and the domain itself against domain block lists, with RFC 5782 semantics.
 */
export const blacklistCheck: Check<'blacklist'> = async ({ domain, resolver, config }): Promise<CheckResult<BlacklistDetails>> => {
  const ipZones = zonesFrom(config.dnsblIpZones, DEFAULT_DNSBL_IP_ZONES, 'ip');
  const domainZones = zonesFrom(config.dnsblDomainZones, DEFAULT_DNSBL_DOMAIN_ZONES, 'domain');
  const hosts = await collectHosts(resolver, domain);
  const ips = [...hosts.ips.keys()];
  const queries = planQueries(domain, ips, ipZones, domainZones);
  const answers = await askLists(resolver, queries, config.blocklistHealth);
  const tally = tallyAnswers(domain, hosts, [...ipZones, ...domainZones], queries, answers);
  const findings = blacklistFindings(domain, hosts, tally);

  const allIpResults = describeIpResults(tally.ipResults);
  const listedIpsCount = allIpResults.filter((result) => !result.clean).length;
  const sites = [...tally.sites.values()];
  const { status, value, message, error, recommendation } = blacklistVerdict(sites, {
    everyQueryFailed: queries.length > 0 && tally.answered === 0,
    hostLookupFailedEntirely: ips.length === 0 && hosts.lookupErrors.length > 0,
  });
  return {
    type: 'blacklist',
    status,
    value,
    message,
    recommendation,
    details: {
      sites,
      totalIpsChecked: allIpResults.length,
      cleanIps: allIpResults.length - listedIpsCount,
      listedIpsCount,
      allIpResults,
      domainListings: tally.domainListings,
      mxHosts: hosts.mxHosts,
      nullMx: hosts.nullMx,
      listsChecked: sites.length,
      queriesSent: queries.length,
      error,
      recommendation,
      findings,
    },
  };
};
