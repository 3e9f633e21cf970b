import type { Redis } from 'ioredis';
import { closeRedis, type Logger } from '@sendwell/server-kit';

export type ChannelListener = (message: string) => void;

/**
 * One Redis subscriber connection per process, shared by every open event stream: a channel is
 * subscribed while it has listeners and unsubscribed when the last one leaves. The connection is
 * opened on the first subscription (most processes never stream) and resubscribes by itself after
 * a reconnect (ioredis' autoResubscribe).
 */
export class ChannelRelay {
  private connection: Redis | null = null;
  private readonly listeners = new Map<string, Set<ChannelListener>>();
  /** The SUBSCRIBE in flight or done per channel, so a second listener waits for the same one. */
  private readonly subscribed = new Map<string, Promise<unknown>>();

  constructor(
    private readonly connect: () => Redis,
    private readonly logger: Logger,
  ) {}

  /** Resolves once Redis confirmed the subscription (publications before that are not seen); call the answer to leave. */
  async subscribe(channel: string, listener: ChannelListener): Promise<() => void> {
    const set = this.listeners.get(channel) ?? new Set<ChannelListener>();
    set.add(listener);
    this.listeners.set(channel, set);
    let subscribing = this.subscribed.get(channel);
    if (!subscribing) {
      subscribing = this.subscriber().subscribe(channel);
      this.subscribed.set(channel, subscribing);
    }
    const leave = () => this.leave(channel, listener);
    try {
      await subscribing;
    } catch (err) {
      leave();
      throw err;
    }
    return leave;
  }

  /** Channels with listeners now (for tests and stats). */
  get channelCount(): number {
    return this.listeners.size;
  }

  private leave(channel: string, listener: ChannelListener): void {
    const set = this.listeners.get(channel);
    if (!set?.delete(listener) || set.size > 0) return;
    this.listeners.delete(channel);
    this.subscribed.delete(channel);
    // Commands on one connection run in order: a later SUBSCRIBE of the channel comes after this.
    this.connection?.unsubscribe(channel).catch((err: unknown) => this.logger.warn({ err, channel }, 'unsubscribe failed'));
  }

  private subscriber(): Redis {
    if (this.connection) return this.connection;
    const connection = this.connect();
    connection.on('error', (err) => this.logger.error({ err }, 'redis (subscriber) error'));
    connection.on('message', (channel: string, message: string) => {
      for (const listener of this.listeners.get(channel) ?? []) listener(message);
    });
    this.connection = connection;
    return connection;
  }

  /** Drops the connection; streams still open get no more publications (close the HTTP server first). */
  async close(): Promise<void> {
    this.listeners.clear();
    this.subscribed.clear();
    const connection = this.connection;
    this.connection = null;
    if (connection) await closeRedis(connection);
  }
}
