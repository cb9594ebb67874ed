import type { GameView } from '../../shared/protocol/index.js';
import type { ServerResult } from '../refuse.js';
import { gameOfRoom, gameRoom, seatRoom, spectatorRoom } from './broadcaster.js';

/** A socket of any namespace, as far as its rooms go. */
interface InRooms {
  readonly rooms: ReadonlySet<string>;
  join(rooms: string | string[]): unknown;
  leave(room: string): unknown;
}

/** Reads a game's view: the lobby's, for whether it is over. */
export type ViewOf = (gameId: string) => Promise<ServerResult<GameView>>;

/**
 * Joins a game's `rooms`, leaving first those of the games the connection followed that are over
 * (or gone). A connection that plays or watches game after game (a player's tab, an agent on a
 * ladder) then keeps no rooms of each, and what its end does per seat held stays with its live
 * games. A finished game still hears what comes after its end (a rematch offered) until the
 * connection takes up another.
 */
export async function followGame(socket: InRooms, gameId: string, rooms: string[], viewOf: ViewOf): Promise<void> {
  for (const room of [...socket.rooms]) {
    const followed = gameOfRoom(room);
    if (followed === undefined || followed === gameId) continue;
    const seen = await viewOf(followed).catch(() => undefined);
    const over = seen !== undefined && (seen.ok ? seen.value.status === 'finished' : seen.error.code === 'room/not_found');
    if (over) await Promise.all([gameRoom(followed), seatRoom(followed, 'black'), seatRoom(followed, 'white'), spectatorRoom(followed)].map((r) => socket.leave(r)));
  }
  await socket.join(rooms);
}
