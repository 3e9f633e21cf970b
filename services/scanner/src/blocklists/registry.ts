import { blocklistHealthSchema, type BlocklistHealth } from '@sendwell/contracts';
import type { Logger } from '@sendwell/server-kit';
import type { Redis } from 'ioredis';
import { mapLimit } from '../checks/blacklist/dnsbl.js';
import { probeBlocklist } from '../checks/blacklist/probe.js';
import type { DnsblZone } from '../checks/blacklist/zones.js';
import type { BlocklistHealthView } from '../checks/types.js';
import type { Resolver } from '../dns/types.js';

/** Lists probed at once: a handful of queries each, spread so no list sees a burst. */
const PROBE_CONCURRENCY = 8;

export interface BlocklistRegistryOptions {
  redis: Redis;
  /** The deployment's key prefix (QUEUE_PREFIX): one registry per deployment, shared by its scanners. */
  prefix: string;
  /** Every list the blacklist check queries, IP and domain lists. */
  zones: readonly DnsblZone[];
  /** A fresh resolver for each probe round, without the shared answer cache: a probe must reach the list. */
  newResolver: () => Resolver;
  logger: Logger;
  now?: () => Date;
}

/**
 * The block lists' health, kept in one Redis hash per deployment: a probe round (a repeatable job,
 * so one scanner of the deployment runs it per interval) asks every list about its RFC 5782 test
 * points and writes each list's state; every scanner process reads the hash into memory every
 * `refresh` interval, and the blacklist check skips a degraded list, reporting it as unknown.
 * A list never probed yet is used as usual.
 */
export class BlocklistRegistry implements BlocklistHealthView {
  private readonly key: string;
  private degraded = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => Date;

  constructor(private readonly options: BlocklistRegistryOptions) {
    this.key = `${options.prefix}:scanner:blocklist-health`;
    this.now = options.now ?? (() => new Date());
  }

  degradedReason(zone: string): string | null {
    return this.degraded.get(zone) ?? null;
  }

  /** Probes every list once and stores what it found; returns the new states. */
  async probeAll(): Promise<BlocklistHealth[]> {
    const resolver = this.options.newResolver();
    const previous = await this.read();
    const checkedAt = this.now().toISOString();
    const states = await mapLimit(this.options.zones, PROBE_CONCURRENCY, async (zone): Promise<BlocklistHealth> => {
      const result = await probeBlocklist(resolver, zone);
      const state = result.healthy ? 'healthy' : 'degraded';
      const before = previous.get(zone.zone);
      if (before && before.state !== state) {
        this.options.logger.warn({ zone: zone.zone, state, reason: result.healthy ? null : result.reason }, `block list ${state === 'degraded' ? 'degraded' : 'recovered'}`);
      }
      return {
        zone: zone.zone,
        name: zone.name,
        kind: zone.kind,
        state,
        reason: result.healthy ? null : result.reason,
        checkedAt,
        since: before && before.state === state ? before.since : checkedAt,
      };
    });
    if (states.length > 0) {
      await this.options.redis.hset(this.key, Object.fromEntries(states.map((s) => [s.zone, JSON.stringify(s)])));
    }
    this.apply(states);
    return states;
  }

  /** Every list's last known state, in the configured order (lists never probed are left out). */
  async states(): Promise<BlocklistHealth[]> {
    const stored = await this.read();
    return this.options.zones.flatMap((zone) => {
      const state = stored.get(zone.zone);
      return state ? [state] : [];
    });
  }

  /** Reads the stored states into memory now, and again every `everyMs` until `stop()`. */
  async start(everyMs: number): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async refresh(): Promise<void> {
    try {
      this.apply([...(await this.read()).values()]);
    } catch (err) {
      // Redis away: keep the last view; the check still runs, and the next refresh catches up.
      this.options.logger.warn({ err }, 'could not read the block list registry');
    }
  }

  private apply(states: readonly BlocklistHealth[]): void {
    const configured = new Set(this.options.zones.map((z) => z.zone));
    this.degraded = new Map(states.filter((s) => s.state === 'degraded' && configured.has(s.zone)).map((s) => [s.zone, s.reason ?? 'degraded']));
  }

  private async read(): Promise<Map<string, BlocklistHealth>> {
    const raw = await this.options.redis.hgetall(this.key);
    const states = new Map<string, BlocklistHealth>();
    for (const [zone, json] of Object.entries(raw)) {
      try {
        const parsed = blocklistHealthSchema.safeParse(JSON.parse(json));
        // A field in another shape (another version's) is left out until the next probe rewrites it.
        if (parsed.success) states.set(zone, parsed.data);
      } catch {
        // Not JSON: not ours.
      }
    }
    return states;
  }
}
