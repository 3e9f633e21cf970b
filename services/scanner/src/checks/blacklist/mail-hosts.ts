import { isIP } from 'node:net';
import { isOutsideDomain } from '../../dns/shared-cache.js';
import type { Resolver } from '../../dns/types.js';
import { planMxHosts } from '../shared/mx-probe/mx-hosts.js';
import { lookupAddresses } from '../outbound-targets.js';

/** Bounds on what one scan checks, so a domain with dozens of MX hosts cannot blow up the query count. */
const MAX_MX_HOSTS = 10;
const MAX_IPS = 16;

/** The addresses checked against the IP lists, each with where it came from ("MX mx.example.com", "A example.com"). */
export interface MailHosts {
  ips: Map<string, string[]>;
  mxHosts: string[];
  nullMx: boolean;
  lookupErrors: string[];
}

/** The MX hosts' addresses and the domain's own A/AAAA, each with where it came from. */
export async function collectHosts(resolver: Resolver, domain: string): Promise<MailHosts> {
  const lookupErrors: string[] = [];
  // The MX hosts as the other mail checks plan them; a null MX (RFC 7505: ".") says the domain accepts no mail.
  const plan = await planMxHosts(resolver, domain, MAX_MX_HOSTS);
  if (plan.error !== null) lookupErrors.push(`MX ${domain}: ${plan.error}`);
  const { nullMx } = plan;
  const mxHosts = plan.hosts.map((mx) => mx.exchange);
  const [mxAddresses, ownAddresses] = await Promise.all([
    // Another organisation's mail host (a provider's) is shared; the domain's own hosts are not.
    Promise.all(mxHosts.map((host) => addressesOf(resolver, host, lookupErrors, isOutsideDomain(host, domain)))),
    addressesOf(resolver, domain, lookupErrors, false),
  ]);
  const ips = new Map<string, string[]>();
  mxHosts.forEach((host, index) => {
    for (const address of mxAddresses[index] ?? []) addSource(ips, address, `MX ${host}`);
  });
  for (const address of ownAddresses) addSource(ips, address, `${isIP(address) === 6 ? 'AAAA' : 'A'} ${domain}`);
  return { ips, mxHosts, nullMx, lookupErrors };
}

/** Records where `address` came from; addresses past MAX_IPS are dropped, their sources too. */
function addSource(ips: Map<string, string[]>, address: string, source: string): void {
  if (isIP(address) === 0) return;
  const sources = ips.get(address);
  if (sources) sources.push(source);
  else if (ips.size < MAX_IPS) ips.set(address, [source]);
}

/** A then AAAA of `host`; each failed lookup is listed as "A mx.example.com: DNS query A mx.example.com timed out". */
async function addressesOf(resolver: Resolver, host: string, errors: string[], shared: boolean): Promise<string[]> {
  const { addresses, failures } = await lookupAddresses(resolver, host, { shared });
  for (const { type, error } of failures) errors.push(`${type} ${host}: ${error.message}`);
  return addresses;
}
