import type { Database } from '@sendwell/db';
import type { AuthContext } from './auth-context.js';

interface Entry {
  auth: AuthContext;
  /** Epoch ms: the earlier of the token's `exp` and the session row's `expires`. */
  validUntil: number;
}

/** Enough for every signed-in user of a busy process; past it the oldest entries go first. */
const MAX_ENTRIES = 10_000;

/**
 * Verified sessions kept in memory, keyed by the exact token string, so a request with a known
 * token costs neither a signature check nor a `sessions ⋈ users` read. What keeps it correct
 * across processes is the `auth_epoch` counter (migration 2026-11-22T00-30): every committed change
 * to `sessions` or `users` moves it in the same transaction. Before a cached entry is trusted the
 * counter is read by a statement that started after the request arrived; if it moved, everything
 * is dropped. So logout, a password reset or a plan change holds for the next request in every
 * process, exactly as when the rows were read each time.
 *
 * The reads are coalesced: at most one is in flight, and the requests that arrive during it share
 * the next one, so at 200 concurrent requests the counter is read about once per round trip
 * instead of each request reading two tables.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  /** The counter value the entries were read under; null until first read. */
  private epoch: string | null = null;
  private inFlight: Promise<string> | null = null;
  private next: Promise<string> | null = null;
  private readonly epochQuery;

  constructor(private readonly db: Database) {
    // Compiled once: the statement is the same for the life of the process.
    this.epochQuery = db.selectFrom('authEpoch').select('value').where('id', '=', 1).compile();
  }

  /**
   * The counter as of a read that began after this call, having dropped the entries if it moved.
   * Returns the value to pass to `set`, which stores only while it is still current.
   */
  async fresh(): Promise<string> {
    const value = await this.readAfterNow();
    if (value !== this.epoch) {
      this.entries.clear();
      this.epoch = value;
    }
    return value;
  }

  /** The entry for a token, if still valid by the clock; call `fresh()` before trusting it. */
  get(token: string, now: number): AuthContext | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.validUntil <= now) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.auth;
  }

  /**
   * Remembers a session read under `epoch`. A read that raced a newer counter value may have seen
   * rows from before the change, so it is not stored (the next request reads again).
   */
  set(token: string, auth: AuthContext, validUntil: number, epoch: string): void {
    if (epoch !== this.epoch) return;
    if (this.entries.size >= MAX_ENTRIES) {
      // Map iteration is insertion order: the first key is the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(token, { auth, validUntil });
  }

  /**
   * A read that began after this call: the one in flight began earlier and cannot vouch for this
   * request, so callers arriving during it wait for the next, which they all share.
   */
  private readAfterNow(): Promise<string> {
    if (!this.inFlight) return this.start();
    this.next ??= this.inFlight.then(
      () => this.start(),
      () => this.start(),
    );
    return this.next;
  }

  private start(): Promise<string> {
    this.next = null;
    const read: Promise<string> = this.read().finally(() => {
      if (this.inFlight === read) this.inFlight = null;
    });
    this.inFlight = read;
    return read;
  }

  private async read(): Promise<string> {
    const result = await this.db.executeQuery(this.epochQuery);
    const row = result.rows[0];
    if (!row) throw new Error('auth_epoch has no row: run the migrations');
    return String(row.value);
  }
}
