import type tls from 'node:tls';
import { isOutsideDomain } from '../../../dns/shared-cache.js';
import { emptyHost, type SmtpHostResult } from './host-result.js';
import { probeHost, type ProbeSettings } from './probe.js';

/**
 * SMTP conversations shared between the scans of one process. Most domains receive mail at a few
 * hundred providers: without sharing, a worker sweeping a million domains every 15 minutes would open
 * a STARTTLS session to the same provider hosts tens of thousands of times an hour, paying a TLS
 * handshake each time and looking like an attack to the provider. A conversation with an MX host
 * outside the scanned domain is therefore kept for `ttlMs` (and joined while in flight) by every scan
 * that dials the same host name, address, port and TLS context. The domain's own hosts are always
 * asked anew: their owner may just have fixed them and pressed "Check again".
 */

/** What a conversation finds out about the host: the probe's part of SmtpHostResult. */
type ProbeFields = Pick<
  SmtpHostResult,
  'ip' | 'greeted' | 'banner' | 'bannerMs' | 'unreliableBannerTiming' | 'greetingName' | 'extensions' | 'starttls' | 'tlsVersion' | 'cipher' | 'certificate' | 'error' | 'errorStage'
>;

interface Conversation {
  fields: ProbeFields;
  /** The chain the TLS session showed, leaf first (DER); [] without one. */
  chain: Buffer[];
}

interface Entry {
  conversation: Promise<Conversation>;
  /** performance.now() after which the entry is stale; Infinity while in flight. */
  expiresAt: number;
}

export interface MxProbeCacheOptions {
  /** How long a conversation is shared. Default 5 minutes: a third of the sweep's 15-minute cycle. */
  ttlMs?: number;
  /** Most conversations kept; the oldest go first. Default 20,000 (a few kB each). */
  maxEntries?: number;
}

export interface MxProbeCacheStats {
  /** Conversations held. */
  size: number;
  /** Dials answered by a kept or in-flight conversation. */
  hits: number;
  /** Conversations actually held with a server. */
  misses: number;
}

export class MxProbeCache {
  private readonly entries = new Map<string, Entry>();
  private readonly contextIds = new WeakMap<tls.SecureContext, number>();
  private nextContextId = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private hits = 0;
  private misses = 0;

  constructor(options: MxProbeCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 5 * 60_000;
    this.maxEntries = options.maxEntries ?? 20_000;
  }

  get stats(): MxProbeCacheStats {
    return { size: this.entries.size, hits: this.hits, misses: this.misses };
  }

  /** The conversation with `address` as `exchange`: a kept one when there is one, else a new one, kept. */
  converse(exchange: string, address: string, settings: ProbeSettings): Promise<Conversation> {
    const key = `${this.contextId(settings.context)} ${settings.chain === true ? 'chain' : 'leaf'} ${settings.port} ${address} ${exchange} ${settings.heloName}`;
    const now = performance.now();
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > now) {
      this.hits++;
      return entry.conversation;
    }
    if (entry) this.entries.delete(key);
    this.misses++;
    const conversation = converse(exchange, address, settings);
    const fresh: Entry = { conversation, expiresAt: Infinity };
    this.entries.set(key, fresh);
    this.evictOldest();
    void conversation.then(
      () => (fresh.expiresAt = performance.now() + this.ttlMs),
      // A probe that threw (a bug, not a network failure: those are results) is not kept.
      () => this.entries.get(key) === fresh && this.entries.delete(key),
    );
    return conversation;
  }

  private contextId(context: tls.SecureContext): number {
    let id = this.contextIds.get(context);
    if (id === undefined) {
      id = this.nextContextId++;
      this.contextIds.set(context, id);
    }
    return id;
  }

  /** Map order is insertion order: the first entries are the oldest. */
  private evictOldest(): void {
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) return;
      this.entries.delete(key);
    }
  }
}

async function converse(exchange: string, address: string, settings: ProbeSettings): Promise<Conversation> {
  const result = emptyHost(exchange, 0, settings.port);
  const chain = await probeHost(result, address, settings);
  const { ip, greeted, banner, bannerMs, unreliableBannerTiming, greetingName, extensions, starttls, tlsVersion, cipher, certificate, error, errorStage } = result;
  return { fields: { ip, greeted, banner, bannerMs, unreliableBannerTiming, greetingName, extensions, starttls, tlsVersion, cipher, certificate, error, errorStage }, chain };
}

/**
 * Probes `address` for `result` (its exchange and the settings' port): through `cache` when the host
 * lies outside `domain`, else with a conversation of its own. Fills `result` in as probeHost does and
 * resolves with the TLS session's chain.
 */
export async function probeMxHost(result: SmtpHostResult, address: string, settings: ProbeSettings, domain: string, cache: MxProbeCache | undefined): Promise<Buffer[]> {
  if (!cache || !isOutsideDomain(result.exchange, domain)) return probeHost(result, address, settings);
  const { fields, chain } = await cache.converse(result.exchange, address, settings);
  // Copies: a scan's result is its own (findings are added to it, never to what is shared).
  Object.assign(result, fields, {
    extensions: [...fields.extensions],
    certificate: fields.certificate && { ...fields.certificate, altNames: [...fields.certificate.altNames] },
    unreliableBannerTiming: fields.unreliableBannerTiming && { ...fields.unreliableBannerTiming },
  });
  return chain;
}
