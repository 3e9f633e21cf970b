import { sendingServiceByHost } from '@sendwell/contracts';
import { sql } from 'kysely';
import type { Database } from '@sendwell/db';
import type { Logger } from '@sendwell/server-kit';
import { createNamingDns, type NamingDns } from './dns.js';
import { parseAddress } from './host-name.js';
import { forwardConfirmedHosts } from './reverse-dns.js';
import { ServiceRanges } from './service-ranges.js';

export interface SourceNamerOptions {
  dnsServers: string[];
  dnsTimeoutMs: number;
}

export interface SourceName {
  /** The forward-confirmed reverse-DNS name (one matching a catalogue service preferred); null without one. */
  host: string | null;
  /** The catalogue service, by confirmed host first, else by its published ranges; null when neither. */
  serviceId: string | null;
}

/** Addresses named at once: enough to keep a minute's batch short, few enough not to flood the resolver. */
const CONCURRENCY = 16;
/** Names go stale (PTRs and ranges move): an address is named again after a week. */
const RENAME_AFTER = sql`interval '7 days'`;

/** Names the source addresses of stored reports: confirmed host name and sending service. */
export class SourceNamer {
  private readonly dns: NamingDns;
  private readonly ranges: ServiceRanges;

  constructor(
    private readonly db: Database,
    private readonly options: SourceNamerOptions,
    private readonly logger: Logger,
  ) {
    this.dns = createNamingDns({ servers: options.dnsServers, timeoutMs: options.dnsTimeoutMs });
    this.ranges = new ServiceRanges(this.dns, logger);
  }

  /** Host and service of one address. Never throws: what a failed lookup would have said is left null. */
  async name(ip: string): Promise<SourceName> {
    const address = parseAddress(ip);
    if (!address) return { host: null, serviceId: null };
    const reverse = await forwardConfirmedHosts(this.dns, address);
    if (reverse.failed) this.logger.debug({ ip }, 'reverse DNS of a source address failed; naming it with what is known');
    const byHost = reverse.confirmed.find((host) => sendingServiceByHost(host) !== undefined);
    const host = byHost ?? reverse.confirmed[0] ?? null;
    const hostService = byHost ? (sendingServiceByHost(byHost)?.id ?? null) : null;
    return { host, serviceId: hostService ?? (await this.ranges.serviceFor(address)) };
  }

  /** Names at most `limit` addresses not named yet (or named over a week ago); resolves with how many it named. */
  async nameUnnamed(limit: number): Promise<number> {
    if (!(limit > 0)) return 0;
    const rows = await this.db
      .selectFrom('mailSources')
      .select('ip')
      .where((eb) => eb.or([eb('namedAt', 'is', null), eb('namedAt', '<', sql<Date>`now() - ${RENAME_AFTER}`)]))
      .orderBy(sql`named_at asc nulls first`)
      .limit(Math.floor(limit))
      .execute();
    let named = 0;
    let next = 0;
    const work = async (): Promise<void> => {
      while (next < rows.length) {
        const { ip } = rows[next++] as { ip: string };
        const { host, serviceId } = await this.name(ip);
        const result = await this.db
          .updateTable('mailSources')
          .set({ host, serviceId, namedAt: sql<Date>`now()` })
          .where('ip', '=', ip)
          .executeTakeFirst();
        if (result.numUpdatedRows > 0n) named++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, rows.length) }, work));
    if (rows.length > 0) this.logger.debug({ named, selected: rows.length }, 'named source addresses');
    return named;
  }
}
