/**
 * What changed in a domain's DNS between two scans, in sentences a domain owner reads at a glance
 * ("DMARC policy downgraded from reject to none", "SPF lost include:_spf.google.com") rather than two
 * raw record sets. Pure, no I/O. Record sets either snapshot failed to read are skipped: a timeout is
 * not a change.
 */
import type { DnsSnapshot, SnapshotKey } from '@sendwell/contracts';

/** How much a change matters to mail: `weakens` lowers protection or breaks delivery. */
export type ChangeImpact = 'weakens' | 'mail' | 'other';

export interface DnsChange {
  record: 'A' | 'AAAA' | 'MX' | 'NS' | 'TXT' | 'SPF' | 'DMARC' | 'DKIM' | 'MTA-STS' | 'TLS-RPT' | 'BIMI';
  impact: ChangeImpact;
  summary: string;
}

/** A DKIM key as the DKIM check found it (selector and the record published under it). */
export interface DkimKey {
  selector: string;
  record: string;
}

const DMARC_STRENGTH: Record<string, number> = { none: 0, quarantine: 1, reject: 2 };

function dmarcTags(record: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of record.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) tags.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  return tags;
}

function dmarcChanges(before: string | null, after: string | null): DnsChange[] {
  if (before === after) return [];
  if (before === null) return [{ record: 'DMARC', impact: 'mail', summary: `DMARC record published: ${after}` }];
  if (after === null) return [{ record: 'DMARC', impact: 'weakens', summary: `DMARC record removed (it was: ${before})` }];
  const [b, a] = [dmarcTags(before), dmarcTags(after)];
  const changes: DnsChange[] = [];
  const [pb, pa] = [(b.get('p') ?? '').toLowerCase(), (a.get('p') ?? '').toLowerCase()];
  if (pb !== pa) {
    const weaker = (DMARC_STRENGTH[pa] ?? -1) < (DMARC_STRENGTH[pb] ?? -1);
    changes.push({
      record: 'DMARC',
      impact: weaker ? 'weakens' : 'mail',
      summary: `DMARC policy ${weaker ? 'downgraded' : 'upgraded'} from ${pb || 'none set'} to ${pa || 'none set'}`,
    });
  }
  const pctBefore = Number(b.get('pct') ?? 100);
  const pctAfter = Number(a.get('pct') ?? 100);
  if (pctBefore !== pctAfter) {
    changes.push({ record: 'DMARC', impact: pctAfter < pctBefore ? 'weakens' : 'mail', summary: `DMARC now applies to ${pctAfter}% of failing mail (was ${pctBefore}%)` });
  }
  for (const tag of ['rua', 'ruf', 'sp', 'adkim', 'aspf']) {
    if (b.get(tag) !== a.get(tag)) {
      changes.push({ record: 'DMARC', impact: 'mail', summary: `DMARC ${tag} changed from ${b.get(tag) ?? '(not set)'} to ${a.get(tag) ?? '(not set)'}` });
    }
  }
  return changes.length ? changes : [{ record: 'DMARC', impact: 'mail', summary: `DMARC record changed to: ${after}` }];
}

/** SPF terms without the version; `all` with its qualifier is kept apart (RFC 7208 §5.1). */
function spfTerms(record: string): { terms: string[]; all: string | null } {
  const terms = record.trim().split(/\s+/).slice(1);
  const all = terms.find((t) => /^[-~?+]?all$/i.test(t)) ?? null;
  return { terms: terms.filter((t) => t !== all).map((t) => t.toLowerCase()), all: all?.toLowerCase() ?? null };
}

/** Qualifiers from strict to open: -all refuses forged mail, +all accepts anything. */
const ALL_STRENGTH: Record<string, number> = { '-all': 3, '~all': 2, '?all': 1, all: 0, '+all': 0 };

function spfChanges(before: string | null, after: string | null): DnsChange[] {
  if (before === after) return [];
  if (before === null) return [{ record: 'SPF', impact: 'mail', summary: `SPF record published: ${after}` }];
  if (after === null) return [{ record: 'SPF', impact: 'weakens', summary: `SPF record removed (it was: ${before})` }];
  const [b, a] = [spfTerms(before), spfTerms(after)];
  const changes: DnsChange[] = [];
  for (const term of b.terms.filter((t) => !a.terms.includes(t))) changes.push({ record: 'SPF', impact: 'weakens', summary: `SPF lost ${term}` });
  for (const term of a.terms.filter((t) => !b.terms.includes(t))) changes.push({ record: 'SPF', impact: 'mail', summary: `SPF added ${term}` });
  if (b.all !== a.all) {
    const weaker = (ALL_STRENGTH[a.all ?? 'all'] ?? 0) < (ALL_STRENGTH[b.all ?? 'all'] ?? 0);
    changes.push({ record: 'SPF', impact: weaker ? 'weakens' : 'mail', summary: `SPF policy changed from ${b.all ?? 'no all'} to ${a.all ?? 'no all'}` });
  }
  // Only the order of terms changed: still worth a line, as evaluation order matters for some senders.
  return changes.length ? changes : [{ record: 'SPF', impact: 'mail', summary: `SPF record rewritten: ${after}` }];
}

function mxChanges(before: DnsSnapshot['mx'], after: DnsSnapshot['mx']): DnsChange[] {
  const changes: DnsChange[] = [];
  const b = new Map(before.map((m) => [m.exchange, m]));
  const a = new Map(after.map((m) => [m.exchange, m]));
  for (const [host, mx] of b) {
    if (!a.has(host)) changes.push({ record: 'MX', impact: a.size === 0 ? 'weakens' : 'mail', summary: `MX ${host} (priority ${mx.priority}) removed` });
  }
  for (const [host, mx] of a) {
    const old = b.get(host);
    if (!old) changes.push({ record: 'MX', impact: 'mail', summary: `MX ${host} (priority ${mx.priority}) added` });
    else if (old.priority !== mx.priority) changes.push({ record: 'MX', impact: 'mail', summary: `MX ${host} priority changed from ${old.priority} to ${mx.priority}` });
    else if (old.ips.join() !== mx.ips.join()) {
      changes.push({ record: 'MX', impact: 'mail', summary: `MX ${host} now resolves to ${mx.ips.join(', ') || 'no address'} (was ${old.ips.join(', ') || 'no address'})` });
    }
  }
  if (a.size === 0 && b.size > 0) changes.push({ record: 'MX', impact: 'weakens', summary: 'The domain has no MX records any more: mail to it falls back to its A record or bounces' });
  return changes;
}

function setChanges(record: 'A' | 'AAAA' | 'NS' | 'TXT', label: string, before: string[], after: string[], impact: ChangeImpact): DnsChange[] {
  const removed = before.filter((v) => !after.includes(v));
  const added = after.filter((v) => !before.includes(v));
  const changes: DnsChange[] = [];
  if (added.length) changes.push({ record, impact, summary: `${label} added: ${added.join(', ')}` });
  if (removed.length) changes.push({ record, impact, summary: `${label} removed: ${removed.join(', ')}` });
  return changes;
}

function dkimChanges(before: readonly DkimKey[], after: readonly DkimKey[]): DnsChange[] {
  const b = new Map(before.map((k) => [k.selector, k.record]));
  const a = new Map(after.map((k) => [k.selector, k.record]));
  const changes: DnsChange[] = [];
  for (const selector of b.keys()) if (!a.has(selector)) changes.push({ record: 'DKIM', impact: 'weakens', summary: `DKIM selector ${selector} removed` });
  for (const [selector, record] of a) {
    if (!b.has(selector)) changes.push({ record: 'DKIM', impact: 'mail', summary: `DKIM selector ${selector} added` });
    else if (b.get(selector) !== record) changes.push({ record: 'DKIM', impact: 'mail', summary: `DKIM key of selector ${selector} changed` });
  }
  return changes;
}

/** `id=` of an MTA-STS record: a new id tells senders to fetch the policy again (RFC 8461 §3.1). */
const mtaStsId = (record: string) => /(?:^|;)\s*id\s*=\s*([^;\s]*)/i.exec(record)?.[1] ?? '';

function mtaStsChanges(before: string | null, after: string | null): DnsChange[] {
  if (before === after) return [];
  if (before === null) return [{ record: 'MTA-STS', impact: 'mail', summary: `MTA-STS published (policy id ${mtaStsId(after!)})` }];
  if (after === null) return [{ record: 'MTA-STS', impact: 'weakens', summary: 'MTA-STS record removed: senders stop insisting on TLS once their cached policy expires' }];
  const [b, a] = [mtaStsId(before), mtaStsId(after)];
  return [{ record: 'MTA-STS', impact: 'mail', summary: b !== a ? `MTA-STS policy id changed from ${b} to ${a}: senders fetch the policy again` : `MTA-STS record changed to: ${after}` }];
}

/** A record with nothing finer to compare than published, removed, changed. */
function recordChanges(record: 'TLS-RPT' | 'BIMI', label: string, before: string | null, after: string | null): DnsChange[] {
  if (before === after) return [];
  if (before === null) return [{ record, impact: 'mail', summary: `${label} published: ${after}` }];
  if (after === null) return [{ record, impact: 'weakens', summary: `${label} removed (it was: ${before})` }];
  return [{ record, impact: 'mail', summary: `${label} changed from ${before} to ${after}` }];
}

const isSpf = (txt: string) => /^v=spf1(?:\s|$)/i.test(txt.trim());
const readable = (snapshot: DnsSnapshot, key: SnapshotKey) => !snapshot.failed?.includes(key);
/** Both snapshots read the record set; one taken before the second depth has no such field at all. */
const comparable = (previous: DnsSnapshot, current: DnsSnapshot, key: 'mtaStsRecord' | 'tlsRptRecord' | 'bimiRecord') =>
  readable(previous, key) && readable(current, key) && previous[key] !== undefined && current[key] !== undefined;

export interface DiffInput {
  previous: DnsSnapshot;
  current: DnsSnapshot;
  /** DKIM keys found by the previous and the current scan; null when either DKIM check could not tell. */
  dkim: { previous: readonly DkimKey[]; current: readonly DkimKey[] } | null;
}

/** Every change between two scans, mail records first. */
export function diffDns({ previous, current, dkim }: DiffInput): DnsChange[] {
  const both = (key: SnapshotKey) => readable(previous, key) && readable(current, key);
  const changes: DnsChange[] = [];
  if (both('dmarcRecord')) changes.push(...dmarcChanges(previous.dmarcRecord, current.dmarcRecord));
  if (both('spfRecord')) changes.push(...spfChanges(previous.spfRecord, current.spfRecord));
  if (dkim) changes.push(...dkimChanges(dkim.previous, dkim.current));
  if (comparable(previous, current, 'mtaStsRecord')) changes.push(...mtaStsChanges(previous.mtaStsRecord ?? null, current.mtaStsRecord ?? null));
  if (comparable(previous, current, 'tlsRptRecord')) changes.push(...recordChanges('TLS-RPT', 'TLS reporting record', previous.tlsRptRecord ?? null, current.tlsRptRecord ?? null));
  if (comparable(previous, current, 'bimiRecord')) changes.push(...recordChanges('BIMI', 'BIMI record', previous.bimiRecord ?? null, current.bimiRecord ?? null));
  if (both('mx')) changes.push(...mxChanges(previous.mx, current.mx));
  if (both('ns')) changes.push(...setChanges('NS', 'Name servers', previous.ns, current.ns, 'mail'));
  if (both('a')) changes.push(...setChanges('A', 'IPv4 addresses', previous.a, current.a, 'other'));
  if (both('aaaa')) changes.push(...setChanges('AAAA', 'IPv6 addresses', previous.aaaa, current.aaaa, 'other'));
  // SPF has its own lines above; other TXT records (site verifications) matter little.
  if (both('txt')) changes.push(...setChanges('TXT', 'TXT records', previous.txt.filter((t) => !isSpf(t)), current.txt.filter((t) => !isSpf(t)), 'other'));
  return changes;
}
