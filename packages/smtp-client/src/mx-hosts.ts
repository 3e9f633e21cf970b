/**
 * Where mail for a domain goes, from its MX records (RFC 5321 §5.1): the distinct exchanges by
 * preference. A null MX (RFC 7505 §3: an MX whose exchange is the root, ".") names no host: a domain
 * whose only MX records are null MX accepts no mail. The lookup itself (and the implicit MX of a
 * domain without MX records) is the caller's, as each reads DNS its own way.
 */

/** One MX record as a resolver gives it; the root may come as "." or "" (c-ares). */
export interface MxRecord {
  exchange: string;
  priority: number;
}

export interface MxHostPlan {
  /** Distinct exchanges (normalised: lower case, no trailing dot) by preference, at most `maxHosts`. */
  hosts: MxRecord[];
  /** Exchanges beyond the limit, left out. */
  skipped: number;
  /** The domain publishes a null MX (RFC 7505 §3) and nothing else. */
  nullMx: boolean;
}

/** The MX hosts of `records`, null MX left out, lowest preference first; at most `maxHosts` of them. */
export function planMxHosts(records: readonly MxRecord[], maxHosts = Infinity): MxHostPlan {
  const seen = new Set<string>();
  const hosts: MxRecord[] = [];
  for (const record of [...records].sort((a, b) => a.priority - b.priority)) {
    const exchange = normaliseHostName(record.exchange);
    if (exchange === '' || seen.has(exchange)) continue;
    seen.add(exchange);
    hosts.push({ exchange, priority: record.priority });
  }
  const nullMx = records.length > 0 && hosts.length === 0;
  return { hosts: hosts.slice(0, maxHosts), skipped: Math.max(0, hosts.length - maxHosts), nullMx };
}

/** A host name as compared: trimmed, lower case, without the trailing dot (the root becomes ""). */
export function normaliseHostName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}
