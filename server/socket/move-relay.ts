import type { RedisClient } from '../redis/connections.js';
import type { MovedEvent } from '../../shared/protocol/index.js';

/**
 * Moves between web processes. The Socket.IO Redis adapter would publish each move once per
 * namespace (players, agents, admins), encoded with msgpack, and every process would decode its
 * own messages back; a move is the hottest event, so it takes one small JSON message on one
 * channel instead, which a process recognises as its own by its first characters, unread. Every
 * process then sends it to its own sockets in the three namespaces.
 */
export interface MoveRelay {
  publish(event: MovedEvent): void;
  /** Moves published by the other processes. */
  onMove(deliver: (event: MovedEvent) => void): Promise<void>;
}

/** Channels of a sharded relay: each its own hash slot, so moves spread over a cluster's masters. */
const SHARDS = 16;

export class RedisMoveRelay implements MoveRelay {
  private readonly mine: string;
  private readonly channels: string[];

  /**
   * `pub` and `sub` are the adapter's connections: on one Redis, moves and the adapter's other
   * messages (a game's end after its last move) then leave in the order they were sent and
   * arrive in it. `sharded` (a cluster): each game's moves go by SPUBLISH on one of SHARDS
   * channels, chosen by its id, so one game's moves keep their order and no master relays them all.
   */
  constructor(
    private readonly pub: RedisClient,
    private readonly sub: RedisClient,
    channel: string,
    instance: string,
    private readonly sharded = false,
  ) {
    this.mine = `${instance} `;
    this.channels = sharded ? Array.from({ length: SHARDS }, (_, i) => `${channel}:{${channel}:${i}}`) : [channel];
  }

  private channelOf(gameId: string): string {
    if (!this.sharded) return this.channels[0]!;
    let hash = 0;
    for (let i = 0; i < gameId.length; i++) hash = (hash * 31 + gameId.charCodeAt(i)) >>> 0;
    return this.channels[hash % SHARDS]!;
  }

  publish(event: MovedEvent): void {
    const channel = this.channelOf(event.gameId);
    const message = this.mine + JSON.stringify(event);
    void (this.sharded ? this.pub.spublish(channel, message) : this.pub.publish(channel, message)).catch(() => undefined);
  }

  async onMove(deliver: (event: MovedEvent) => void): Promise<void> {
    const mine = new Set(this.channels);
    this.sub.on(this.sharded ? 'smessage' : 'message', (channel: string, message: string) => {
      if (!mine.has(channel) || message.startsWith(this.mine)) return;
      deliver(JSON.parse(message.slice(message.indexOf(' ') + 1)) as MovedEvent);
    });
    if (this.sharded) await Promise.all(this.channels.map((channel) => this.sub.ssubscribe(channel)));
    else await this.sub.subscribe(this.channels[0]!);
  }
}
