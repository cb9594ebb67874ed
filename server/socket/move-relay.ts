import { masterAddressOf, type RedisClient } from '../redis/connections.js';
import { Recent, RECENT_GAMES_KEPT } from '../games/recent.js';
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
  /** Each time the subscriptions were made again after a loss (what was published meanwhile is missed). */
  onResubscribed(then: () => void): void;
}

/**
 * Channels of a sharded relay: each its own hash slot, so moves spread over a cluster's masters.
 * (A channel per slot, 16,384 of them, would put each game's moves on its own master; but ioredis
 * subscribes every channel again at a failover, and in the failover test every move on the other
 * masters was then answered 1.1-2.2 s late, against none over a second with 16.) Each move goes on
 * two of them, on two masters, so no master's failover holds up the games of the others.
 */
const SHARDS = 16;

/** How long after ioredis sends a cluster's SSUBSCRIBEs again they are taken as answered. */
const RESUBSCRIBED_AFTER_MS = 250;

export class RedisMoveRelay implements MoveRelay {
  private readonly mine: string;
  private readonly channels: string[];

  /**
   * `pub` and `sub` are the adapter's connections: on one Redis, moves and the adapter's other
   * messages (a game's end after its last move) then leave in the order they were sent and
   * arrive in it. `sharded` (a cluster): each game's moves go by SPUBLISH on two of SHARDS
   * channels (`channelsOf`), so one game's moves keep their order and no master relays them all.
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

  /**
   * A game's channels: one Redis has one. On a cluster, the one chosen by the game's id and the
   * next one whose master (as last seen) is another: each channel keeps the order of the moves
   * sent on it, and a receiver plays each ply once, from whichever copy comes first.
   */
  private channelsOf(gameId: string): string[] {
    if (!this.sharded) return this.channels;
    let hash = 0;
    for (let i = 0; i < gameId.length; i++) hash = (hash * 31 + gameId.charCodeAt(i)) >>> 0;
    const first = hash % SHARDS;
    const home = masterAddressOf(this.pub, this.channels[first]!);
    for (let step = 1; step < SHARDS; step++) {
      const other = this.channels[(first + step) % SHARDS]!;
      if (masterAddressOf(this.pub, other) !== home) return [this.channels[first]!, other];
    }
    return [this.channels[first]!];
  }

  publish(event: MovedEvent): void {
    const message = this.mine + JSON.stringify(event);
    for (const channel of this.channelsOf(event.gameId)) void (this.sharded ? this.pub.spublish(channel, message) : this.pub.publish(channel, message)).catch(() => undefined);
  }

  async onMove(deliver: (event: MovedEvent) => void): Promise<void> {
    const mine = new Set(this.channels);
    /** Per game, the last ply delivered: a move's second copy, or one older than it, is not played again. */
    const delivered = new Recent<number>(RECENT_GAMES_KEPT);
    this.sub.on(this.sharded ? 'smessage' : 'message', (channel: string, message: string) => {
      if (!mine.has(channel) || message.startsWith(this.mine)) return;
      const event = JSON.parse(message.slice(message.indexOf(' ') + 1)) as MovedEvent;
      if (this.sharded) {
        if (event.ply <= (delivered.get(event.gameId) ?? -1)) return;
        delivered.set(event.gameId, event.ply);
      }
      deliver(event);
    });
    if (this.sharded) await Promise.all(this.channels.map((channel) => this.sub.ssubscribe(channel)));
    else await this.sub.subscribe(this.channels[0]!);
  }

  /**
   * A cluster's subscribers are made again per master after its slots moved (`subscribersReady`,
   * which ioredis emits as it sends the SSUBSCRIBEs, so a moment later, once they are answered);
   * one Redis's subscriber after it reconnected (`ready`, past the first).
   */
  onResubscribed(then: () => void): void {
    if (this.sharded) this.sub.on('subscribersReady', () => setTimeout(then, RESUBSCRIBED_AFTER_MS).unref());
    else {
      let first = this.sub.status !== 'ready';
      this.sub.on('ready', () => (first ? (first = false) : then()));
    }
  }
}
