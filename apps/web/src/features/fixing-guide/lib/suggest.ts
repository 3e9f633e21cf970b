/**
 * Suggested records, computed from what the latest scan saw (part 2 §2.7): an SPF record that keeps
 * the domain's real senders within the 10-lookup limit (RFC 7208 §4.6.4), DMARC from p=none with a
 * report address toward enforcement, and the DKIM host of the domain's mail provider.
 */
import type { DkimDetails, DmarcDetails, MxRecord, SpfDetails } from '@sendwell/contracts';
import type { RecordToPublish } from './providers';

export interface Suggestion {
  /** Records to publish; empty when the domain already has what this guide would suggest. */
  records: RecordToPublish[];
  /** Whether they replace a record of the same name (edit, not add). */
  replaces: boolean;
  notes: string[];
}

/* ------------------------------------------------------------------ SPF */

export const SPF_LOOKUP_LIMIT = 10;

interface SpfNode {
  domain: string;
  term: string | null;
  totalLookups: number;
  children: SpfNode[];
}

function isSpfNode(value: unknown): value is SpfNode {
  const v = value as SpfNode | null;
  return typeof v === 'object' && v !== null && typeof v.domain === 'string' && typeof v.totalLookups === 'number' && Array.isArray(v.children);
}

const domainsUnder = (node: SpfNode): string[] => [node.domain, ...node.children.flatMap(domainsUnder)];
const LOOKUP_TERM = /^[+~?-]?(?:include|a|mx|ptr|exists)(?=[:/]|$)/i;

/**
 * The record to publish. Terms that still make sense are kept in order; `ptr` goes (RFC 7208 §5.5);
 * `+all` and `?all` become `~all`, `-all` stays. While the record needs more than 10 lookups, the
 * include that costs most is replaced by the addresses it resolved to in the scan (flattening).
 */
export function suggestSpf(domain: string, details: SpfDetails | undefined, mx: readonly MxRecord[]): Suggestion {
  const current = details?.record ?? null;
  if (!current) {
    return mx.length > 0
      ? { records: [{ type: 'TXT', host: domain, value: 'v=spf1 mx ~all' }], replaces: false, notes: [`Authorises the domain's mail servers (${mx.map((m) => m.exchange).join(', ')}). Add include: terms for services that send as ${domain} (a newsletter tool, a CRM, a help desk).`] }
      : { records: [{ type: 'TXT', host: domain, value: 'v=spf1 -all' }], replaces: false, notes: [`${domain} has no mail servers, so the record says no one sends mail as it: spoofers are refused.`] };
  }

  const notes: string[] = [];
  const terms = current.trim().split(/\s+/).slice(1);
  const all = terms.find((t) => /^[+~?-]?all$/i.test(t));
  const hard = all?.toLowerCase() === '-all';
  let kept = terms.filter((t) => !/^[+~?-]?all$/i.test(t) && !/^[+~?-]?ptr(?::|$)/i.test(t));
  if (terms.some((t) => /^[+~?-]?ptr(?::|$)/i.test(t))) notes.push('Removed ptr: it is slow, unreliable and deprecated (RFC 7208 §5.5).');
  if (all && !/^[~-]all$/i.test(all)) notes.push(`Replaced ${all} with ~all: ${all} lets anyone send as ${domain}.`);
  if (!all && !kept.some((t) => /^redirect=/i.test(t))) notes.push('Added ~all: without it, mail from anyone else is neither passed nor failed.');
  kept = [...new Set(kept)];

  const tree = isSpfNode((details as { includeTree?: unknown }).includeTree) ? ((details as { includeTree: SpfNode }).includeTree) : null;
  const childFor = (term: string) => tree?.children.find((c) => c.term?.toLowerCase() === term.replace(/^\+/, '').toLowerCase());
  const cost = (term: string) => {
    if (!LOOKUP_TERM.test(term) && !/^redirect=/i.test(term)) return 0;
    const child = childFor(term);
    return child ? child.totalLookups + 1 : 1;
  };
  let lookups = kept.reduce((n, t) => n + cost(t), 0);
  const flattened = details?.flattenedIps ?? [];
  while (lookups > SPF_LOOKUP_LIMIT) {
    const heaviest = kept.filter((t) => /^\+?include:/i.test(t) && childFor(t)).sort((a, b) => cost(b) - cost(a))[0];
    if (!heaviest) break;
    const under = new Set(domainsUnder(childFor(heaviest)!).map((d) => d.toLowerCase()));
    const ips = [...new Set(flattened.filter((f) => under.has(String(f.source ?? '').toLowerCase())).map((f) => f.ip))];
    if (ips.length === 0) break;
    const replacement = ips.map((ip) => (ip.includes(':') ? `ip6:${ip}` : `ip4:${ip}`));
    kept = kept.flatMap((t) => (t === heaviest ? replacement : [t]));
    lookups = kept.reduce((n, t) => n + cost(t), 0);
    notes.push(`Flattened ${heaviest.replace(/^\+/, '')} into the ${ips.length} address${ips.length === 1 ? '' : 'es'} it named at the last scan, to stay within ${SPF_LOOKUP_LIMIT} lookups. Check them again when that provider changes its servers.`);
  }
  if (lookups > SPF_LOOKUP_LIMIT) notes.push(`Still ${lookups} lookups: remove includes of services that no longer send for ${domain}.`);

  const hasRedirect = kept.some((t) => /^redirect=/i.test(t));
  const value = ['v=spf1', ...kept, ...(hasRedirect ? [] : [hard ? '-all' : '~all'])].join(' ');
  if (value === current.trim().replace(/\s+/g, ' ')) return { records: [], replaces: true, notes: [] };
  if (!hard && !hasRedirect) notes.push('Move to -all once DMARC reports show every sender passing.');
  return { records: [{ type: 'TXT', host: domain, value }], replaces: true, notes };
}

/* ------------------------------------------------------------------ DMARC */

function dmarcTags(record: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of record.split(';')) {
    const [key, ...rest] = part.split('=');
    const k = key?.trim().toLowerCase();
    if (k) tags.set(k, rest.join('=').trim());
  }
  return tags;
}

/**
 * p=none with reports to the user first; from p=none the next step is quarantine, then reject, once
 * the scan shows SPF and DKIM passing (the sign that real mail will align).
 */
export function suggestDmarc(domain: string, details: DmarcDetails | undefined, reportTo: string, authenticationPasses: boolean): Suggestion {
  const host = `_dmarc.${domain}`;
  const current = details?.record ?? null;
  if (!current) {
    return {
      records: [{ type: 'TXT', host, value: `v=DMARC1; p=none; pct=100; rua=mailto:${reportTo}` }],
      replaces: false,
      notes: [`p=none only watches: receivers send daily reports to ${reportTo} and nothing is blocked. Read them for two to four weeks, then move to quarantine.`],
    };
  }
  const tags = dmarcTags(current);
  const notes: string[] = [];
  const policy = (tags.get('p') ?? 'none').toLowerCase();
  if (!tags.get('rua')) {
    tags.set('rua', `mailto:${reportTo}`);
    notes.push(`Added rua: without it no one sees who sends as ${domain}.`);
  }
  if (authenticationPasses && policy !== 'reject') {
    const next = policy === 'quarantine' ? 'reject' : 'quarantine';
    tags.set('p', next);
    notes.push(
      next === 'quarantine'
        ? 'SPF and DKIM pass, so the next step is quarantine: failing mail goes to spam. Watch the reports for a week or two before reject.'
        : 'SPF and DKIM pass and quarantine is in place: reject refuses spoofed mail outright.',
    );
  } else if (!authenticationPasses && policy !== 'reject') {
    notes.push('Stay at this policy until SPF and DKIM pass: enforcing now would send your own mail to spam.');
  }
  if (tags.has('pct') && tags.get('pct') !== '100' && policy !== 'none') {
    tags.set('pct', '100');
    notes.push('Set pct=100 so the policy covers all mail.');
  }
  const order = ['v', 'p', 'sp', 'pct', 'rua', 'ruf', 'adkim', 'aspf', 'fo', 'ri', 'rf'];
  const keys = [...tags.keys()].sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
  const value = keys.map((k) => `${k === 'v' ? 'v' : k}=${k === 'v' ? 'DMARC1' : tags.get(k)}`).join('; ');
  if (notes.length === 0 || value === current.trim()) return { records: [], replaces: true, notes };
  return { records: [{ type: 'TXT', host, value }], replaces: true, notes };
}

/* ------------------------------------------------------------------ DKIM */

interface MailProvider {
  name: string;
  matches: RegExp;
  records: (domain: string) => RecordToPublish[];
  note: string;
}

const mailProviders: MailProvider[] = [
  {
    name: 'Google Workspace',
    matches: /(^|\.)(google\.com|googlemail\.com)$/i,
    records: (d) => [{ type: 'TXT', host: `google._domainkey.${d}`, value: 'v=DKIM1; k=rsa; p=<the key from Admin console → Apps → Google Workspace → Gmail → Authenticate email>' }],
    note: 'Generate the key in the Admin console, publish it, then select Start authentication there.',
  },
  {
    name: 'Microsoft 365',
    matches: /\.mail\.protection\.outlook\.com$/i,
    records: (d) =>
      ['selector1', 'selector2'].map((s) => ({ type: 'CNAME' as const, host: `${s}._domainkey.${d}`, value: `${s}-${d.replace(/\./g, '-')}._domainkey.<your tenant>.onmicrosoft.com` })),
    note: 'Microsoft Defender → Email authentication settings → DKIM shows the exact CNAME targets; turn signing on there once both are published.',
  },
  {
    name: 'Zoho Mail',
    matches: /(^|\.)zoho\.(com|eu|in|com\.au)$/i,
    records: (d) => [{ type: 'TXT', host: `zmail._domainkey.${d}`, value: 'v=DKIM1; k=rsa; p=<the key from Zoho Mail Admin → Domains → Email Configuration → DKIM>' }],
    note: 'Add a selector in Zoho Mail Admin, publish its key, then Verify there.',
  },
  {
    name: 'Fastmail',
    matches: /(^|\.)messagingengine\.com$/i,
    records: (d) => [1, 2, 3].map((n) => ({ type: 'CNAME' as const, host: `fm${n}._domainkey.${d}`, value: `fm${n}.${d}.dkim.fmhosted.com` })),
    note: 'Fastmail signs with these three keys once the CNAMEs resolve.',
  },
];

/** The DKIM host of the domain's mail provider (from its MX), else the generic selector form (part 2 §2.7). */
export function suggestDkim(domain: string, details: DkimDetails | undefined, mx: readonly MxRecord[]): Suggestion & { provider: string | null } {
  if ((details?.records ?? []).length > 0) return { records: [], replaces: false, notes: [], provider: null };
  const provider = mailProviders.find((p) => mx.some((m) => p.matches.test(m.exchange.replace(/\.$/, ''))));
  if (provider) return { records: provider.records(domain), replaces: false, notes: [`Your mail is handled by ${provider.name}. ${provider.note}`], provider: provider.name };
  return {
    records: [{ type: 'TXT', host: `selector._domainkey.${domain}`, value: 'v=DKIM1; k=rsa; p=<the public key your mail provider gives you>' }],
    replaces: false,
    notes: ['Your mail provider generates the key pair and names the selector: replace "selector" with its name and paste the public key.', 'Services that send for you (newsletters, CRMs) each publish a key of their own under their selector.'],
    provider: null,
  };
}
