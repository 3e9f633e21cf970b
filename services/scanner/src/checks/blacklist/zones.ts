import { isIP } from 'node:net';
import { queryZone, redactedZone, splitQueryKey } from './keyed-zone.js';

/**
 * The built-in DNS block lists and what each one's answers mean.
 *
 * RFC 5782 lets a list encode meaning in the 127.0.0.0/8 address it answers with (§2.3), and several
 * operators use some of those addresses to say "I will not answer you" (a public resolver, a resolver
 * over quota, an unregistered resolver). Those answers are `refusedCodes`: the result for that list is
 * `unknown`, never `listed`. `listedCodes`, when present, is the complete set of answers that mean a
 * listing; any other answer from that list is not a listing (e.g. HostKarma's 127.0.0.1 "whitelisted").
 *
 * Chosen for the defaults: lists that were publicly queryable and operating as of late 2025. Notes:
 * - Spamhaus (ZEN, DBL) answers 127.255.255.254 to queries through public resolvers (8.8.8.8, 1.1.1.1)
 *   and 127.255.255.255 over the free-use quota; commercial use needs a Data Query Service key, which
 *   changes the zone name (`{key}.zen.dq.spamhaus.net`): configure it through DNSBL_IP_ZONES; the key
 *   is kept to the DNS question (keyed-zone.ts).
 * - Barracuda needs the querying resolver's IP registered (free) at barracudacentral.org; unregistered
 *   resolvers get no answer or REFUSED, which this check reports as `unknown`.
 * - SURBL and URIBL answer 127.0.0.1 to blocked resolvers (too many queries, public resolvers).
 * - UCEPROTECT level 2 and 3 list whole provider networks and ASNs, not the address itself.
 * - SORBS (dnsbl.sorbs.net) was shut down by Proofpoint in 2024 and is kept only as metadata so an
 *   operator's configured zone still gets a name; it is not queried by default.
 */

export type DnsblKind = 'ip' | 'domain';

export interface DnsblZone {
  /** Display name, e.g. "Spamhaus ZEN". */
  name: string;
  /**
   * The list's zone as shown and its stable id (site rows, findings, alert condition keys, the
   * registry): "zen.spamhaus.org", or for a list reached with a key "<redacted>.zen.dq.spamhaus.net".
   */
  zone: string;
  /** The zone DNS questions go to, key included: never shown, stored or logged. */
  queryZone: string;
  kind: DnsblKind;
  /** The list's home page. */
  url: string | null;
  /** Per-entry lookup page; `{ip}` (IP lists) or `{domain}` (domain lists) is replaced. */
  lookupUrlTemplate: string | null;
  /** Where to request removal; `{ip}` / `{domain}` is replaced when present. */
  removalUrl: string | null;
  description: string;
  /** Answers that mean the query was refused or the resolver blocked: the result is `unknown`. */
  refusedCodes: readonly string[];
  /** When set, only these answers mean "listed"; the others mean what `otherAnswers` says. */
  listedCodes?: readonly string[];
  /**
   * What an answer in 127.0.0.0/8 that neither lists nor is a refusal code means: `clean` for a
   * list we know answers informational codes (HostKarma's 127.0.0.1 "whitelisted"), `refused` (the
   * result is unknown) for a list we know nothing about or whose listing codes were configured.
   * Unset: `clean`.
   */
  otherAnswers?: 'clean' | 'refused';
  /** Meaning of particular answers, for messages (e.g. Spamhaus PBL). */
  codeMeanings?: Readonly<Record<string, string>>;
  /** Whether IPv6 addresses are listed (RFC 5782 §2.4); false skips IPv6 queries to this zone. */
  ipv6: boolean;
  /** Access conditions worth knowing before relying on the list. */
  access: 'free' | 'free-registration' | 'free-noncommercial';
  /** Operator notes shown with the list. */
  note?: string;
  /** Kept for naming only; never queried by default. */
  discontinued?: boolean;
  /**
   * A domain list's entry that must be listed, for the registry's self-test (RFC 5782 §5 names
   * "TEST"; some operators document their own). IP lists always use 127.0.0.2.
   */
  testDomain?: string;
  /**
   * In the catalogue: reached only with the customer's key in front of the zone (`<key>.zen.dq.spamhaus.net`),
   * so never a default. On a configured list: its query zone holds a key.
   */
  keyed?: boolean;
}

/** A list as the catalogue describes it; a configured list adds the zone it queries (`dnsblZone`). */
export type DnsblListInfo = Omit<DnsblZone, 'queryZone'>;

const SPAMHAUS_REFUSED = ['127.255.255.252', '127.255.255.254', '127.255.255.255'] as const;
const SPAMHAUS_REFUSED_MEANINGS = {
  '127.255.255.252': 'query refused: malformed query (typo in the list name)',
  '127.255.255.254': 'query refused: queries through public or open resolvers are blocked',
  '127.255.255.255': 'query refused: the resolver exceeded the free query volume',
} as const;

const ip = (zone: Omit<DnsblListInfo, 'kind' | 'refusedCodes' | 'access'> & Partial<Pick<DnsblListInfo, 'refusedCodes' | 'access'>>): DnsblListInfo => ({
  kind: 'ip',
  refusedCodes: [],
  access: 'free',
  ...zone,
});
const dom = (zone: Omit<DnsblListInfo, 'kind' | 'ipv6' | 'refusedCodes' | 'access'> & Partial<Pick<DnsblListInfo, 'refusedCodes' | 'access'>>): DnsblListInfo => ({
  kind: 'domain',
  ipv6: false,
  refusedCodes: [],
  access: 'free',
  ...zone,
});

const PUBLIC_LISTS: readonly DnsblListInfo[] = [
  ip({
    name: 'Spamhaus ZEN',
    zone: 'zen.spamhaus.org',
    url: 'https://www.spamhaus.org/',
    lookupUrlTemplate: 'https://check.spamhaus.org/results/?query={ip}',
    removalUrl: 'https://check.spamhaus.org/',
    description: 'Spamhaus SBL, CSS, XBL and PBL combined: spam sources, hijacked hosts and end-user ranges.',
    refusedCodes: SPAMHAUS_REFUSED,
    codeMeanings: {
      '127.0.0.2': 'SBL: known spam source or operation',
      '127.0.0.3': 'SBL CSS: snowshoe or low-reputation sending',
      '127.0.0.4': 'XBL: compromised or infected host',
      '127.0.0.9': 'SBL DROP: hijacked or criminal network',
      '127.0.0.10': 'PBL (ISP): end-user range that should not send mail directly',
      '127.0.0.11': 'PBL (Spamhaus): end-user range that should not send mail directly',
      ...SPAMHAUS_REFUSED_MEANINGS,
    },
    ipv6: true,
    access: 'free-noncommercial',
    note: 'Public resolvers are refused; commercial use needs a Spamhaus DQS key.',
  }),
  ip({
    name: 'Barracuda Reputation Block List',
    zone: 'b.barracudacentral.org',
    url: 'https://www.barracudacentral.org/',
    lookupUrlTemplate: 'https://www.barracudacentral.org/lookups/lookup-reputation',
    removalUrl: 'https://www.barracudacentral.org/rbl/removal-request',
    description: 'Barracuda Networks reputation of sending IP addresses.',
    ipv6: false,
    access: 'free-registration',
    note: "The querying resolver's IP must be registered (free) with Barracuda Central.",
  }),
  ip({
    name: 'SpamCop',
    zone: 'bl.spamcop.net',
    url: 'https://www.spamcop.net/',
    lookupUrlTemplate: 'https://www.spamcop.net/bl.shtml?{ip}',
    removalUrl: 'https://www.spamcop.net/bl.shtml?{ip}',
    description: 'Addresses reported by SpamCop users; entries expire automatically about 24 hours after reports stop.',
    ipv6: false,
  }),
  ip({
    name: 'PSBL (Passive Spam Block List)',
    zone: 'psbl.surriel.com',
    url: 'https://psbl.org/',
    lookupUrlTemplate: 'https://psbl.org/listing?ip={ip}',
    removalUrl: 'https://psbl.org/listing?ip={ip}',
    description: 'Addresses seen sending to spam traps; self-service removal.',
    ipv6: false,
  }),
  ip({
    name: 'UCEPROTECT Level 1',
    zone: 'dnsbl-1.uceprotect.net',
    url: 'https://www.uceprotect.net/',
    lookupUrlTemplate: 'https://www.uceprotect.net/en/rblcheck.php?ipr={ip}',
    removalUrl: 'https://www.uceprotect.net/en/index.php?m=7&s=0',
    description: 'Single addresses that sent to UCEPROTECT spam traps; expire after 7 days without new hits.',
    ipv6: false,
  }),
  ip({
    name: 'UCEPROTECT Level 2',
    zone: 'dnsbl-2.uceprotect.net',
    url: 'https://www.uceprotect.net/',
    lookupUrlTemplate: 'https://www.uceprotect.net/en/rblcheck.php?ipr={ip}',
    removalUrl: 'https://www.uceprotect.net/en/index.php?m=7&s=0',
    description: "Allocations with many Level 1 listings: reflects the hosting provider's network, not this address alone.",
    ipv6: false,
  }),
  ip({
    name: 'UCEPROTECT Level 3',
    zone: 'dnsbl-3.uceprotect.net',
    url: 'https://www.uceprotect.net/',
    lookupUrlTemplate: 'https://www.uceprotect.net/en/rblcheck.php?ipr={ip}',
    removalUrl: 'https://www.uceprotect.net/en/index.php?m=7&s=0',
    description: "Whole autonomous systems with many listings: reflects the provider's network; few receivers use it.",
    ipv6: false,
  }),
  ip({
    name: 'NiX Spam (manitu)',
    zone: 'ix.dnsbl.manitu.net',
    url: 'https://www.dnsbl.manitu.net/',
    lookupUrlTemplate: 'https://www.dnsbl.manitu.net/lookup.php?value={ip}',
    removalUrl: 'https://www.dnsbl.manitu.net/lookup.php?value={ip}',
    description: 'Addresses seen sending spam to the NiX Spam traps (heise/manitu, Germany).',
    ipv6: false,
  }),
  ip({
    name: 'Mailspike',
    zone: 'bl.mailspike.net',
    url: 'https://mailspike.io/',
    lookupUrlTemplate: 'https://mailspike.io/ip_verify?ip={ip}',
    removalUrl: 'https://mailspike.io/ip_verify?ip={ip}',
    description: 'Mailspike blacklist and worst reputation levels of sending addresses.',
    ipv6: false,
  }),
  ip({
    name: 'GBUdb Truncate',
    zone: 'truncate.gbudb.net',
    url: 'https://www.gbudb.com/truncate/',
    lookupUrlTemplate: 'https://www.gbudb.com/truncate/index.jsp',
    removalUrl: 'https://www.gbudb.com/truncate/index.jsp',
    description: 'Addresses whose mail is almost entirely spam in the GBUdb network; removed automatically as behaviour improves.',
    ipv6: false,
  }),
  ip({
    name: 'DroneBL',
    zone: 'dnsbl.dronebl.org',
    url: 'https://dronebl.org/',
    lookupUrlTemplate: 'https://dronebl.org/lookup?ip={ip}',
    removalUrl: 'https://dronebl.org/lookup?ip={ip}',
    description: 'Abusable hosts: open proxies, botnet drones, compromised routers.',
    ipv6: true,
  }),
  ip({
    name: 'Anonmails DNSBL',
    zone: 'spam.dnsbl.anonmails.de',
    url: 'https://anonmails.de/dnsbl.php',
    lookupUrlTemplate: 'https://anonmails.de/dnsbl.php?ip={ip}',
    removalUrl: 'https://anonmails.de/dnsbl.php?ip={ip}',
    description: 'Addresses sending spam to anonmails.de traps.',
    ipv6: false,
  }),
  ip({
    name: 'WPBL (Weighted Private Block List)',
    zone: 'db.wpbl.info',
    url: 'http://www.wpbl.info/',
    lookupUrlTemplate: 'http://www.wpbl.info/record.php?ip={ip}',
    removalUrl: 'http://www.wpbl.info/',
    description: 'Addresses reported by WPBL members; entries expire when reports stop.',
    ipv6: false,
  }),
  ip({
    name: 's5h.net',
    zone: 'all.s5h.net',
    url: 'https://www.usenix.org.uk/content/rbl.html',
    lookupUrlTemplate: 'https://www.usenix.org.uk/content/rbl.html',
    removalUrl: 'https://www.usenix.org.uk/content/rblremove.html',
    description: 'Addresses that hit the s5h.net spam traps.',
    ipv6: false,
  }),
  ip({
    name: '0spam',
    zone: 'bl.0spam.org',
    url: 'https://0spam.org/',
    lookupUrlTemplate: 'https://0spam.org/?ip={ip}',
    removalUrl: 'https://0spam.org/',
    description: 'Addresses seen sending spam to the 0spam honeypot network.',
    ipv6: false,
  }),
  ip({
    name: 'NSZones',
    zone: 'bl.nszones.com',
    url: 'https://www.nszones.com/',
    lookupUrlTemplate: 'https://www.nszones.com/',
    removalUrl: 'https://www.nszones.com/contact.shtml',
    description: 'Addresses sending spam to NSZones traps.',
    ipv6: false,
  }),
  ip({
    name: 'SPFBL',
    zone: 'dnsbl.spfbl.net',
    url: 'https://spfbl.net/en/dnsbl/',
    lookupUrlTemplate: 'https://spfbl.net/en/dnsbl/?query={ip}',
    removalUrl: 'https://spfbl.net/en/delist/',
    description: 'Reputation of senders in the SPFBL network (bad or suspicious reputation).',
    ipv6: true,
  }),
  ip({
    name: 'blocklist.de',
    zone: 'bl.blocklist.de',
    url: 'https://www.blocklist.de/',
    lookupUrlTemplate: 'https://www.blocklist.de/en/search.html?ip={ip}',
    removalUrl: 'https://www.blocklist.de/en/delist.html?ip={ip}',
    description: 'Addresses attacking mail, SSH and web servers (fail2ban reports); expire after 48 hours.',
    ipv6: false,
  }),
  ip({
    name: 'SEM Black (Spam Eating Monkey)',
    zone: 'bl.spameatingmonkey.net',
    url: 'https://spameatingmonkey.com/',
    lookupUrlTemplate: 'https://spameatingmonkey.com/lookup/{ip}',
    removalUrl: 'https://spameatingmonkey.com/lookup/{ip}',
    description: 'Addresses sending spam to Spam Eating Monkey traps.',
    ipv6: false,
  }),
  ip({
    name: 'SEM Backscatter (Spam Eating Monkey)',
    zone: 'backscatter.spameatingmonkey.net',
    url: 'https://spameatingmonkey.com/',
    lookupUrlTemplate: 'https://spameatingmonkey.com/lookup/{ip}',
    removalUrl: 'https://spameatingmonkey.com/lookup/{ip}',
    description: 'Servers sending backscatter (bounces and auto-replies to forged senders).',
    ipv6: false,
  }),
  ip({
    name: 'Backscatterer',
    zone: 'ips.backscatterer.org',
    url: 'https://www.backscatterer.org/',
    lookupUrlTemplate: 'https://www.backscatterer.org/?target=test&ip={ip}',
    removalUrl: 'https://www.backscatterer.org/?target=test&ip={ip}',
    description: 'Servers sending backscatter or sender callouts to forged addresses (UCEPROTECT).',
    ipv6: false,
  }),
  ip({
    name: 'LashBack UBL',
    zone: 'ubl.unsubscore.com',
    url: 'https://blacklist.lashback.com/',
    lookupUrlTemplate: 'https://blacklist.lashback.com/',
    removalUrl: 'https://blacklist.lashback.com/',
    description: 'Senders that abuse unsubscribe requests (mail to addresses harvested from unsubscribe links).',
    ipv6: false,
  }),
  ip({
    name: 'SpamRATS (all)',
    zone: 'all.spamrats.com',
    url: 'https://www.spamrats.com/',
    lookupUrlTemplate: 'https://www.spamrats.com/lookup.php?ip={ip}',
    removalUrl: 'https://www.spamrats.com/removal.php?ip={ip}',
    description: 'SpamRATS Dyna (generic rDNS), NoPtr (no reverse DNS) and Spam (trap hits) combined.',
    codeMeanings: {
      '127.0.0.36': 'RATS-Dyna: generic or dynamic-looking reverse DNS',
      '127.0.0.37': 'RATS-NoPtr: no reverse DNS (PTR) record',
      '127.0.0.38': 'RATS-Spam: sent to SpamRATS traps',
    },
    ipv6: false,
  }),
  ip({
    name: 'JustSpam',
    zone: 'dnsbl.justspam.org',
    url: 'https://www.justspam.org/',
    lookupUrlTemplate: 'https://www.justspam.org/check-an-ip',
    removalUrl: 'https://www.justspam.org/delisting-policy',
    description: 'Addresses that sent spam to JustSpam traps and are listed on at least one other major list.',
    ipv6: false,
  }),
  ip({
    name: 'InterServer RBL',
    zone: 'rbl.interserver.net',
    url: 'https://rbl.interserver.net/',
    lookupUrlTemplate: 'https://rbl.interserver.net/ip.php?ip={ip}',
    removalUrl: 'https://rbl.interserver.net/ip.php?ip={ip}',
    description: 'Addresses attacking or spamming InterServer customers.',
    ipv6: false,
  }),
  ip({
    name: 'HostKarma (Junk Email Filter)',
    zone: 'hostkarma.junkemailfilter.com',
    url: 'https://wiki.junkemailfilter.com/index.php/Spam_DNS_Lists',
    lookupUrlTemplate: 'https://ipadmin.junkemailfilter.com/remove.php?ip={ip}',
    removalUrl: 'https://ipadmin.junkemailfilter.com/remove.php?ip={ip}',
    description: 'Combined white/black list; only the black answer (127.0.0.2) is a listing.',
    listedCodes: ['127.0.0.2'],
    codeMeanings: {
      '127.0.0.1': 'whitelisted',
      '127.0.0.2': 'blacklisted',
      '127.0.0.3': 'yellow: sends both good mail and spam',
      '127.0.0.4': 'brown: mostly spam',
      '127.0.0.5': 'no blacklisting (NOBL)',
    },
    ipv6: false,
  }),
  // Metadata only (not in the defaults): names for zones an operator may configure.
  ip({
    name: 'SORBS (discontinued)',
    zone: 'dnsbl.sorbs.net',
    url: 'http://www.sorbs.net/',
    lookupUrlTemplate: null,
    removalUrl: null,
    description: 'SORBS aggregate list; shut down in 2024.',
    ipv6: false,
    discontinued: true,
  }),
  ip({
    name: 'Redhawk',
    zone: 'access.redhawk.org',
    url: 'https://www.redhawk.org/',
    lookupUrlTemplate: null,
    removalUrl: 'https://www.redhawk.org/',
    description: 'Redhawk access list; small, low usage, operating status uncertain.',
    ipv6: false,
  }),
  ip({
    name: '0spam RBL (networks)',
    zone: 'rbl.0spam.org',
    url: 'https://0spam.org/',
    lookupUrlTemplate: 'https://0spam.org/?ip={ip}',
    removalUrl: 'https://0spam.org/',
    description: '0spam network-level list (ranges with repeated abuse).',
    ipv6: false,
  }),
  ip({
    name: 'SEM Black IPv6 (Spam Eating Monkey)',
    zone: 'bl.ipv6.spameatingmonkey.net',
    url: 'https://spameatingmonkey.com/',
    lookupUrlTemplate: 'https://spameatingmonkey.com/lookup/{ip}',
    removalUrl: 'https://spameatingmonkey.com/lookup/{ip}',
    description: 'IPv6 addresses sending spam to Spam Eating Monkey traps.',
    ipv6: true,
  }),

  dom({
    name: 'Spamhaus DBL',
    zone: 'dbl.spamhaus.org',
    url: 'https://www.spamhaus.org/blocklists/domain-blocklist/',
    lookupUrlTemplate: 'https://check.spamhaus.org/results/?query={domain}',
    removalUrl: 'https://check.spamhaus.org/',
    description: 'Domains of low reputation: spam, phishing, malware and botnet command-and-control.',
    // 127.0.1.255: the DBL was asked about an IP address, which it refuses.
    refusedCodes: [...SPAMHAUS_REFUSED, '127.0.1.255'],
    codeMeanings: {
      '127.0.1.2': 'spam domain',
      '127.0.1.4': 'phishing domain',
      '127.0.1.5': 'malware domain',
      '127.0.1.6': 'botnet command-and-control domain',
      '127.0.1.102': 'abused legitimate spam domain',
      '127.0.1.103': 'abused legitimate redirector or URL shortener',
      '127.0.1.104': 'abused legitimate phishing domain',
      '127.0.1.105': 'abused legitimate malware domain',
      '127.0.1.106': 'abused legitimate botnet C&C domain',
      '127.0.1.255': 'query refused: IP addresses cannot be queried in the DBL',
      ...SPAMHAUS_REFUSED_MEANINGS,
    },
    access: 'free-noncommercial',
    note: 'Public resolvers are refused; commercial use needs a Spamhaus DQS key.',
    testDomain: 'dbltest.com',
  }),
  dom({
    name: 'SURBL multi',
    zone: 'multi.surbl.org',
    url: 'https://www.surbl.org/',
    lookupUrlTemplate: 'https://www.surbl.org/surbl-analysis?d={domain}',
    removalUrl: 'https://www.surbl.org/surbl-analysis',
    description: 'Domains found in spam messages bodies, phishing and malware sites.',
    // SURBL answers 127.0.0.1 to resolvers it has blocked (RFC 5782 §5 reserves .1 from listings).
    refusedCodes: ['127.0.0.1'],
    codeMeanings: { '127.0.0.1': 'query refused: the resolver is blocked by SURBL' },
    access: 'free-noncommercial',
    note: 'Public resolvers and heavy users are blocked; large volumes need a data feed.',
    testDomain: 'test.surbl.org',
  }),
  dom({
    name: 'URIBL multi',
    zone: 'multi.uribl.com',
    url: 'https://uribl.com/',
    lookupUrlTemplate: 'https://admin.uribl.com/?section=lookup&query={domain}',
    removalUrl: 'https://admin.uribl.com/',
    description: 'Domains appearing in unsolicited mail (black, grey and red lists).',
    refusedCodes: ['127.0.0.1'],
    codeMeanings: {
      '127.0.0.1': 'query refused: the resolver is blocked by URIBL',
      '127.0.0.2': 'URIBL black',
      '127.0.0.4': 'URIBL grey',
      '127.0.0.8': 'URIBL red',
    },
    access: 'free-noncommercial',
    note: 'Public resolvers and heavy users are refused; large volumes need a data feed.',
    testDomain: 'test.uribl.com',
  }),
  dom({
    name: 'SEM URI (Spam Eating Monkey)',
    zone: 'uribl.spameatingmonkey.net',
    url: 'https://spameatingmonkey.com/',
    lookupUrlTemplate: 'https://spameatingmonkey.com/lookup/{domain}',
    removalUrl: 'https://spameatingmonkey.com/lookup/{domain}',
    description: 'Domains found in spam bodies at Spam Eating Monkey traps.',
  }),
  dom({
    name: 'NordSpam DBL',
    zone: 'dbl.nordspam.com',
    url: 'https://www.nordspam.com/',
    lookupUrlTemplate: 'https://www.nordspam.com/lookup/?q={domain}',
    removalUrl: 'https://www.nordspam.com/delisting/',
    description: 'Domains used in spam, phishing and malware seen by NordSpam.',
  }),
];

/**
 * Spamhaus's Data Query Service: ZEN and the DBL for commercial use, answered through any resolver
 * to queries carrying the account's key (`<key>.zen.dq.spamhaus.net`), with the public zones' answers.
 */
const SPAMHAUS_DQS: readonly DnsblListInfo[] = (
  [
    ['zen.spamhaus.org', 'Spamhaus ZEN (DQS)', 'zen.dq.spamhaus.net'],
    ['dbl.spamhaus.org', 'Spamhaus DBL (DQS)', 'dbl.dq.spamhaus.net'],
  ] as const
).map(([publicZone, name, zone]) => ({
  ...(PUBLIC_LISTS.find((list) => list.zone === publicZone) as DnsblListInfo),
  name,
  zone,
  keyed: true,
  access: 'free-registration',
  note: 'Spamhaus Data Query Service: queried with the account key, through any resolver.',
}));

/** Every list the scanner knows by zone: the public ones and those reached with a key. */
export const DNSBL_ZONE_METADATA: readonly DnsblListInfo[] = [...PUBLIC_LISTS, ...SPAMHAUS_DQS];

const byZone = new Map(DNSBL_ZONE_METADATA.map((zone) => [zone.zone, zone]));
const KEYED_ZONES = SPAMHAUS_DQS.map((list) => list.zone);

/** The IP lists queried when DNSBL_IP_ZONES is empty (26 lists). */
export const DEFAULT_DNSBL_IP_ZONES: readonly string[] = DNSBL_ZONE_METADATA.filter(
  (zone) => zone.kind === 'ip' && !zone.discontinued && !zone.keyed && zone.zone !== 'access.redhawk.org' && zone.zone !== 'rbl.0spam.org' && zone.zone !== 'bl.ipv6.spameatingmonkey.net',
).map((zone) => zone.zone);

/** The domain lists queried when DNSBL_DOMAIN_ZONES is empty. */
export const DEFAULT_DNSBL_DOMAIN_ZONES: readonly string[] = DNSBL_ZONE_METADATA.filter(
  (zone) => zone.kind === 'domain' && !zone.discontinued && !zone.keyed,
).map((zone) => zone.zone);

/**
 * The metadata of a zone; a zone not in the built-in list gets generic metadata. A generic zone
 * treats 127.0.0.1 as `unknown` rather than listed: RFC 5782 §5 forbids listing 127.0.0.1 itself, and
 * lists commonly answer with it to mean "blocked" (SURBL, URIBL) or "whitelisted" (HostKarma).
 */
/**
 * The listing codes of a list we know nothing about (RFC 5782 §2.3): 127.0.0.2–127.0.0.255.
 * 127.0.0.1 is never a listing (§5), 127.255.255.0/24 is where lists put their error answers
 * (Spamhaus's 127.255.255.254 "public resolver"), and any other answer is not one we can read.
 */
const GENERIC_LISTED_CODES: readonly string[] = Array.from({ length: 254 }, (_, i) => `127.0.0.${i + 2}`);

/**
 * A configured zone: `zen.example` or `zen.example=127.0.0.2,127.0.0.4` (only those answers list); a
 * list reached with a key is `key@zone`, or `<key>.zen.dq.spamhaus.net` for a list the catalogue
 * knows to need one. `zone` is then the list's public zone and `key` the secret put in front of it.
 */
export interface DnsblZoneSpec {
  zone: string;
  key?: string;
  listedCodes?: readonly string[];
}

/**
 * DNSBL_IP_ZONES / DNSBL_DOMAIN_ZONES: comma-separated zones, each optionally followed by `=` and its
 * listing codes, which are comma-separated too: an IPv4 address after a comma continues the zone
 * before it (a zone name is never an address). Throws on a code outside 127.0.0.0/8, and on a keyed
 * list without its key; no message repeats a key.
 */
export function parseDnsblZoneSpecs(value: string): DnsblZoneSpec[] {
  const specs: DnsblZoneSpec[] = [];
  for (const token of value.split(',').map((part) => part.trim()).filter(Boolean)) {
    const previous = specs.at(-1);
    const [zone = '', firstCode] = token.split('=', 2).map((part) => part.trim());
    const code = isIP(token) === 4 ? token : firstCode;
    if (code !== undefined && !(isIP(code) === 4 && code.startsWith('127.'))) {
      throw new Error(`"${code}" is not a listing code: block lists answer with addresses in 127.0.0.0/8`);
    }
    if (isIP(token) === 4) {
      if (!previous?.listedCodes) throw new Error(`"${token}" follows no "zone=code" entry`);
      previous.listedCodes = [...previous.listedCodes, token];
    } else {
      const keyed = splitQueryKey(normaliseZone(zone), KEYED_ZONES);
      specs.push({ zone: keyed.zone, ...(keyed.key !== null ? { key: keyed.key } : {}), ...(code !== undefined ? { listedCodes: [code] } : {}) });
    }
  }
  return specs;
}

function normaliseZone(zone: string): string {
  return zone.trim().toLowerCase().replace(/\.$/, '');
}

/**
 * The zone's metadata: the built-in list's when known, else a generic list's; configured listing
 * codes win. A key goes into `queryZone` only; `zone` shows it redacted.
 */
export function dnsblZone(spec: DnsblZoneSpec | string, kind: DnsblKind): DnsblZone {
  const { zone: configured, key, listedCodes } = typeof spec === 'string' ? { zone: spec, key: undefined, listedCodes: undefined } : spec;
  const keyed = key !== undefined ? { zone: normaliseZone(configured), key } : splitQueryKey(normaliseZone(configured), KEYED_ZONES);
  const { zone } = keyed;
  const known = byZone.get(zone);
  const base: DnsblListInfo =
    known && known.kind === kind
      ? known
      : {
          name: zone,
          zone,
          kind,
          url: null,
          lookupUrlTemplate: null,
          removalUrl: null,
          description: `DNS ${kind === 'ip' ? 'IP' : 'domain'} block list ${zone}.`,
          refusedCodes: ['127.0.0.1'],
          listedCodes: GENERIC_LISTED_CODES,
          otherAnswers: 'refused',
          ipv6: true,
          access: 'free',
        };
  const configuredList: DnsblZone = { ...base, zone: redactedZone(keyed), queryZone: queryZone(keyed), keyed: keyed.key !== null };
  return listedCodes ? { ...configuredList, listedCodes, otherAnswers: 'refused' } : configuredList;
}

/** Fills `{ip}` / `{domain}` in a URL template. */
export function fillUrl(template: string | null, value: string): string | null {
  if (template === null) return null;
  const encoded = encodeURIComponent(value);
  return template.replace('{ip}', encoded).replace('{domain}', encoded);
}
