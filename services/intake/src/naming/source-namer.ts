import type { Database } from '@sendwell/db';
import type { Logger } from '@sendwell/server-kit';

export interface SourceNamerOptions {
  dnsServers: string[];
  dnsTimeoutMs: number;
}

/** Names the source addresses of stored reports (stub: helper C). */
export class SourceNamer {
  constructor(
    private readonly db: Database,
    private readonly options: SourceNamerOptions,
    private readonly logger: Logger,
  ) {}

  /** Names at most `limit` addresses not named yet (or named long ago); resolves with how many it named. */
  async nameUnnamed(limit: number): Promise<number> {
    void this.db;
    void this.options;
    void this.logger;
    void limit;
    return 0;
  }
}
