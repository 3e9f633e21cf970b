import type { DnsResponse } from './types.js';

/**
 * A process-wide cache of DNS answers shared by every scan, for questions whose answer does not
 * depend on which domain is being scanned: DNSBL lookups of a mail server's address, the addresses of
 * another organisation's mail hosts, a provider's SPF record (`_spf.google.com`). Thousands of domains
 * share a few hundred mail providers, so without it every scan would ask the block lists again about
 * the same Google and Microsoft addresses.
 *
 * What it keeps, and for how long:
 * - an answer (NOERROR with records) for the smallest TTL of its records;
 * - a negative answer (NXDOMAIN, or NOERROR without records) for min(SOA TTL, SOA MINIMUM) of the
 *   authority section's SOA (RFC 2308 §5), or `negativeTtlSeconds` (default 60 s) when the server sent
 *   no SOA; RFC 2308 §5 advises against caching such answers between resolvers, which is about loops
 *   between caching servers and not about a client remembering a "not listed" for a minute;
 * - every TTL capped at `maxTtlSeconds` (default 1 h), and a TTL of 0 is not cached;
 * - never a timeout, SERVFAIL, REFUSED or any other rcode: those are retried by the next scan;
 * - at most `maxEntries` answers (default 100,000), least recently used evicted first (a hit moves an
 *   entry to the newest end only once it has drifted into the older half, so a hit costs a lookup,
 *   not a Map delete and re-insert: a scan makes ~80 hits).
 *
 * Identical questions asked by concurrent scans share one network query while it is in flight; if it
 * fails, every scan waiting on it sees that failure (as if it had asked at the same moment) and the
 * next question goes to the network again.
 */
export interface SharedAnswerCacheOptions {
  maxEntries?: number;
  negativeTtlSeconds?: number;
  maxTtlSeconds?: number;
  /** Milliseconds clock, for tests. */
  now?: () => number;
}

export interface SharedAnswerCacheStats {
  size: number;
  hits: number;
  misses: number;
  /** Questions answered by joining a query another scan had in flight. */
  joined: number;
  evictions: number;
}

interface Entry {
  response: DnsResponse;
  expiresAt: number;
  /** `insertions` when it was last put at the newest end. */
  position: number;
}

export class SharedAnswerCache {
  readonly maxEntries: number;
  readonly negativeTtlSeconds: number;
  readonly maxTtlSeconds: number;
  private readonly now: () => number;
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<DnsResponse>>();
  private counters = { hits: 0, misses: 0, joined: 0, evictions: 0 };
  /** Entries put at the newest end so far: at most this many minus `position` are newer than an entry. */
  private insertions = 0;

  constructor(options: SharedAnswerCacheOptions = {}) {
    this.maxEntries = Math.max(1, options.maxEntries ?? 100_000);
    this.negativeTtlSeconds = Math.max(0, options.negativeTtlSeconds ?? 60);
    this.maxTtlSeconds = Math.max(0, options.maxTtlSeconds ?? 3_600);
    this.now = options.now ?? Date.now;
  }

  get stats(): SharedAnswerCacheStats {
    return { size: this.entries.size, ...this.counters };
  }

  /** A fresh cached answer, or undefined (an expired one is dropped). */
  get(key: string): DnsResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    // Most recently used last: Map keeps insertion order, so re-inserting moves it to the end. One in
    // the newer half needs no move: at least maxEntries / 2 insertions come before its eviction anyway.
    if (this.insertions - entry.position >= this.maxEntries / 2) {
      this.entries.delete(key);
      entry.position = this.insertions++;
      this.entries.set(key, entry);
    }
    return entry.response;
  }

  /** Stores `response` if it may be shared: NOERROR or NXDOMAIN with a positive TTL. */
  set(key: string, response: DnsResponse): void {
    if (response.rcode !== 'NOERROR' && response.rcode !== 'NXDOMAIN') return;
    const negative = response.rcode === 'NXDOMAIN' || response.answers.length === 0;
    const ttl = Math.min(this.maxTtlSeconds, negative ? (response.negativeTtl ?? this.negativeTtlSeconds) : response.ttl);
    if (!(ttl > 0)) return;
    // Every scan gets this same object: nothing may change it.
    Object.freeze(response.answers);
    Object.freeze(response);
    this.entries.delete(key);
    this.entries.set(key, { response, expiresAt: this.now() + ttl * 1000, position: this.insertions++ });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
      this.counters.evictions++;
    }
  }

  /** A fresh cached answer, counted as a hit, or undefined: resolve()'s first step, for callers that can skip the rest. */
  hit(key: string): DnsResponse | undefined {
    const cached = this.get(key);
    if (cached) this.counters.hits++;
    return cached;
  }

  /**
   * The cached answer for `key`, else the one a concurrent caller is fetching, else `fetch()`'s
   * (stored when cacheable). `fromNetwork` tells the caller whether its own fetch ran.
   */
  async resolve(key: string, fetch: () => Promise<DnsResponse>): Promise<{ response: DnsResponse; fromNetwork: boolean }> {
    const cached = this.hit(key);
    if (cached) return { response: cached, fromNetwork: false };
    const pending = this.inFlight.get(key);
    if (pending) {
      this.counters.joined++;
      return { response: await pending, fromNetwork: false };
    }
    this.counters.misses++;
    const asked = fetch();
    this.inFlight.set(key, asked);
    try {
      const response = await asked;
      this.set(key, response);
      return { response, fromNetwork: true };
    } finally {
      this.inFlight.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
    this.counters = { hits: 0, misses: 0, joined: 0, evictions: 0 };
  }
}

let processCache: SharedAnswerCache | undefined;

/** The process-wide cache the scanner's resolvers share (created on first use). */
export function sharedAnswerCache(): SharedAnswerCache {
  processCache ??= new SharedAnswerCache();
  return processCache;
}

/**
 * Whether `name` lies outside `domain` (neither the domain nor below it): a name its owner does not
 * control, whose answer is the same for every scan, so a check may ask it with `{ shared: true }`.
 * The scanned domain's own names never are: its owner may just have fixed them and rescanned.
 */
export function isOutsideDomain(name: string, domain: string): boolean {
  return name !== domain && !(name.length > domain.length && name.endsWith(domain) && name.charCodeAt(name.length - domain.length - 1) === 46);
}
