import { SENDING_SERVICES, type SendingService } from '@sendwell/contracts';
import type { Logger } from '@sendwell/server-kit';
import type { NamingDns } from './dns.js';
import type { IpAddress } from './host-name.js';
import { DEFAULT_SPF_LIMITS, resolveSpfRanges, type AddressRange, type SpfRangesLimits } from './spf-ranges.js';

export interface ServiceRangesOptions {
  /** How long resolved ranges are used before they are resolved again; 6 hours. */
  ttlMs?: number;
  /** After a failed resolution, how long until the next try; 15 minutes. */
  retryMs?: number;
  services?: readonly SendingService[];
  limits?: SpfRangesLimits;
  now?: () => number;
}

interface Entry {
  ranges: AddressRange[];
  /** Whether `ranges` came from a resolution that did not fail. */
  complete: boolean;
  refreshAt: number;
}

const SIX_HOURS = 6 * 3_600_000;
const FIFTEEN_MINUTES = 15 * 60_000;

/**
 * The catalogue services' published sending ranges (their SPF records), resolved at run time because
 * they change, and kept in memory per process for `ttlMs`. Refreshed lazily when asked; a service
 * whose resolution fails keeps the ranges it had (and is tried again after `retryMs`), so a DNS
 * outage does not un-name senders.
 */
export class ServiceRanges {
  private readonly entries = new Map<string, Entry>();
  private refreshing: Promise<void> | null = null;
  private readonly ttlMs: number;
  private readonly retryMs: number;
  private readonly services: readonly SendingService[];
  private readonly limits: SpfRangesLimits;
  private readonly now: () => number;

  constructor(
    private readonly dns: NamingDns,
    private readonly logger: Logger,
    options: ServiceRangesOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? SIX_HOURS;
    this.retryMs = options.retryMs ?? FIFTEEN_MINUTES;
    this.services = (options.services ?? SENDING_SERVICES).filter((service) => service.spf.length > 0);
    this.limits = options.limits ?? DEFAULT_SPF_LIMITS;
    this.now = options.now ?? Date.now;
  }

  /** The service whose ranges hold the address, the narrowest range winning (catalogue order on a tie); null when none. */
  async serviceFor(address: IpAddress): Promise<string | null> {
    await this.refresh();
    let best: { id: string; prefix: number } | null = null;
    for (const service of this.services) {
      for (const range of this.entries.get(service.id)?.ranges ?? []) {
        if (range.address.kind() !== address.kind() || (best && range.prefix <= best.prefix)) continue;
        if (address.match(range.address, range.prefix)) best = { id: service.id, prefix: range.prefix };
      }
    }
    return best?.id ?? null;
  }

  /** The ranges currently held for a service (for tests and diagnostics). */
  rangesOf(serviceId: string): readonly AddressRange[] {
    return this.entries.get(serviceId)?.ranges ?? [];
  }

  /** Resolves the services whose ranges are due; concurrent callers share one run. Never rejects. */
  refresh(): Promise<void> {
    const now = this.now();
    const due = this.services.filter((service) => (this.entries.get(service.id)?.refreshAt ?? 0) <= now);
    if (due.length === 0) return Promise.resolve();
    this.refreshing ??= Promise.all(due.map((service) => this.resolve(service))).then(
      () => {
        this.refreshing = null;
      },
      (error: unknown) => {
        this.refreshing = null;
        this.logger.warn({ err: error }, 'resolving service ranges failed');
      },
    );
    return this.refreshing;
  }

  private async resolve(service: SendingService): Promise<void> {
    const result = await resolveSpfRanges(this.dns, service.spf, this.limits);
    const previous = this.entries.get(service.id);
    const now = this.now();
    if (result.truncated) this.logger.debug({ service: service.id, lookups: result.lookups }, 'service SPF walk cut short at its cap');
    if (!result.failed) {
      this.entries.set(service.id, { ranges: result.ranges, complete: true, refreshAt: now + this.ttlMs });
      return;
    }
    this.logger.debug({ service: service.id }, 'resolving service SPF ranges failed; keeping what was known');
    // Keep a complete earlier answer; with none, what this partial walk found beats nothing.
    const keep = previous?.complete ? previous.ranges : result.ranges.length >= (previous?.ranges.length ?? 0) ? result.ranges : (previous?.ranges ?? []);
    this.entries.set(service.id, { ranges: keep, complete: previous?.complete ?? false, refreshAt: now + this.retryMs });
  }
}
