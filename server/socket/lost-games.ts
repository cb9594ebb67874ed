import type { GameLost, StoreEmptied } from '../../shared/protocol/index.js';
import type { GameStore } from '../store/store.js';
import { gameOfRoom } from './broadcaster.js';
import { agentNamespace, playerNamespace, type BoardroomServer } from './namespaces.js';

/** What the admin console is told when the store came back empty, found so at `at`. */
export const storeEmptied = (at: number): StoreEmptied => ({
  code: 'store/emptied',
  message: 'The store came back empty (a Redis restarted without persistence): games, accounts, sessions, ratings and agents are gone. Players were told; agents need registering again.',
  at,
});

/**
 * After the store came back empty: every game room this process's sockets are in whose game is
 * gone is told `game:lost`, so no player waits for a move that will never come. Each process
 * tells its own sockets.
 */
export async function announceLostGames(io: BoardroomServer, store: GameStore): Promise<number> {
  let lost = 0;
  for (const ns of [playerNamespace(io), agentNamespace(io)]) {
    for (const room of ns.adapter.rooms.keys()) {
      const gameId = gameOfRoom(room);
      if (!gameId || (await store.get(gameId))) continue;
      const event: GameLost = { gameId, code: 'game/lost', message: 'This game was lost: the server’s storage restarted empty, so its moves are gone. Start a new game.' };
      ns.local.to(room).emit('game:lost', event);
      lost++;
    }
  }
  return lost;
}
