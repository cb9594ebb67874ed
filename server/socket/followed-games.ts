import type { GameView } from '../../shared/protocol/index.js';
import type { ServerResult } from '../refuse.js';
import { gameOfRoom, roomsOfGame } from './broadcaster.js';

/** A socket of any namespace, as far as its rooms go. */
interface InRooms {
  readonly rooms: ReadonlySet<string>;
  join(rooms: string | string[]): unknown;
  leave(room: string): unknown;
}

/** What reads a game's view (the game service): here, for whether the game is over. */
interface Views {
  view(gameId: string): Promise<ServerResult<GameView>>;
}

/**
 * Joins a game's `rooms`, leaving first those of the games the connection followed that are over
 * (or gone). A connection that plays or watches game after game (a player's tab, an agent on a
 * ladder) then keeps no rooms of each, and what its end does per seat held stays with its live
 * games. A finished game still hears what comes after its end (a rematch offered) until the
 * connection takes up another.
 */
export async function followGame(socket: InRooms, gameId: string, rooms: string[], games: Views): Promise<void> {
  for (const room of [...socket.rooms]) {
    const followed = gameOfRoom(room);
    if (followed === undefined || followed === gameId) continue;
    const seen = await games.view(followed).catch(() => undefined);
    const over = seen !== undefined && (seen.ok ? seen.value.status === 'finished' : seen.error.code === 'room/not_found');
    if (over) await Promise.all(roomsOfGame(followed).map((r) => socket.leave(r)));
  }
  await socket.join(rooms);
}
