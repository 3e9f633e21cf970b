import { askLists } from '../../checks/blacklist/query.js';
import { planQueries } from '../../checks/blacklist/plan.js';
import type { MailTestAnalysisDeps } from '../types.js';

/** Registered domains of a message's links asked about: a newsletter links to a handful, a hostile message to thousands. */
export const MAX_LINK_DOMAINS = 20;

/**
 * The link domains listed on the domain block lists (RFC 5782 §2.2, DBL/SURBL/URIBL), each with the
 * display names of the lists that list it: never a zone, which for a list reached with a key holds
 * the key. Degraded lists (failing their self-tests) are not asked. A lookup that fails says nothing.
 */
export async function listedLinkDomains(domains: readonly string[], deps: Pick<MailTestAnalysisDeps, 'resolver' | 'blocklists'>): Promise<Map<string, string[]>> {
  const { zones, health } = deps.blocklists;
  const usable = zones.filter((zone) => zone.kind === 'domain' && health.degradedReason(zone.zone) === null);
  const queries = domains.slice(0, MAX_LINK_DOMAINS).flatMap((domain) => planQueries(domain, [], [], usable).map((query) => ({ ...query, domain })));
  const listed = new Map<string, string[]>();
  let answers;
  try {
    answers = await askLists(deps.resolver, queries, health);
  } catch {
    // askLists throws on a resolver failure other than a timeout: the block lists are then unknown, not clean or listed.
    return listed;
  }
  answers.forEach((answer, index) => {
    const query = queries[index];
    if (query === undefined || answer.outcome.status !== 'listed') return;
    listed.set(query.domain, [...(listed.get(query.domain) ?? []), query.zone.name]);
  });
  return listed;
}
