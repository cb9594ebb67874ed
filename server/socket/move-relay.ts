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

export class RedisMoveRelay implements MoveRelay {
  private readonly mine: string;

  /**
   * `pub` and `sub` are the adapter's connections: moves and the adapter's other messages (a
   * game's end after its last move) then leave in the order they were sent and arrive in it.
   */
  constructor(
    private readonly pub: RedisClient,
    private readonly sub: RedisClient,
    private readonly channel: string,
    instance: string,
  ) {
    this.mine = `${instance} `;
  }

  publish(event: MovedEvent): void {
    void this.pub.publish(this.channel, this.mine + JSON.stringify(event)).catch(() => undefined);
  }

  async onMove(deliver: (event: MovedEvent) => void): Promise<void> {
    this.sub.on('message', (channel: string, message: string) => {
      if (channel !== this.channel || message.startsWith(this.mine)) return;
      deliver(JSON.parse(message.slice(message.indexOf(' ') + 1)) as MovedEvent);
    });
    await this.sub.subscribe(this.channel);
  }
}
