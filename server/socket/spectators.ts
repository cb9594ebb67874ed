import { gameRoom, seatRoom, spectatorRoom } from './broadcaster.js';
import type { PlayerNamespace } from './namespaces.js';

/** A count is taken this long after the first change that asks for it, so a crowd arriving costs one count. */
export const SPECTATORS_EVERY_MS = 500;

/**
 * Counts each game's spectators (connections in its spectator room holding none of its seats,
 * in every process: the adapter's `fetchSockets`) and sends `spectators` to the game's room.
 * A watch, an unwatch, a spectator's disconnection or a player's arrival asks for a count; the
 * asks for one game within SPECTATORS_EVERY_MS are one count.
 */
export class SpectatorCount {
  private readonly due = new Set<string>();

  constructor(
    private readonly ns: PlayerNamespace,
    private readonly onError: (error: unknown, gameId: string) => void,
    private readonly delayMs = SPECTATORS_EVERY_MS,
  ) {}

  changed(gameId: string): void {
    if (this.due.has(gameId)) return;
    this.due.add(gameId);
    setTimeout(() => {
      this.due.delete(gameId);
      this.count(gameId).catch((error) => this.onError(error, gameId));
    }, this.delayMs).unref();
  }

  private async count(gameId: string): Promise<void> {
    const watching = await this.ns.in(spectatorRoom(gameId)).except([seatRoom(gameId, 'black'), seatRoom(gameId, 'white')]).fetchSockets();
    this.ns.to(gameRoom(gameId)).emit('spectators', { gameId, count: watching.length });
  }

  /** The games whose spectator room a socket is in (read while it is disconnecting). */
  static watched(rooms: Iterable<string>): string[] {
    const prefix = spectatorRoom('');
    return [...rooms].filter((r) => r.startsWith(prefix)).map((r) => r.slice(prefix.length));
  }
}
