import { toView } from '../games/game.js';
import type { GameStore } from '../store/store.js';
import { gameOfRoom, gameRoom } from './broadcaster.js';
import { adminNamespace, agentNamespace, playerNamespace, type BoardroomServer } from './namespaces.js';

/** Games read at once while catching up: a process following thousands does not stop serving. */
const READS_AT_ONCE = 50;

/**
 * This process's subscriptions were renewed (its Redis restarted, or a cluster master failed over):
 * what the other processes published meanwhile (moves, ends) never reached its sockets. Each game
 * its sockets follow is read again and its state sent to them, so no one waits for a move or an
 * end they never heard, and no clock runs against a player who was not told it is their turn.
 * Returns the games sent.
 */
export async function resendFollowedGames(io: BoardroomServer, store: GameStore, now: () => number): Promise<number> {
  const namespaces = [playerNamespace(io), agentNamespace(io), adminNamespace(io)];
  const followed = new Set<string>();
  for (const ns of namespaces) for (const room of ns.adapter.rooms.keys()) {
    const gameId = gameOfRoom(room);
    if (gameId) followed.add(gameId);
  }
  const ids = [...followed];
  let sent = 0;
  for (let i = 0; i < ids.length; i += READS_AT_ONCE) {
    const games = await Promise.all(ids.slice(i, i + READS_AT_ONCE).map((id) => store.get(id)));
    for (const game of games) {
      if (!game) continue;
      const view = toView(game, now());
      for (const ns of namespaces) ns.local.to(gameRoom(game.id)).emit('state', view);
      sent++;
    }
  }
  return sent;
}

/** Runs `work` when asked, once at a time: asked while it runs, it runs once more after. */
export function oneAtATime(work: () => Promise<unknown>, onError: (error: unknown) => void): () => void {
  let running = false;
  let again = false;
  const run = (): void => {
    if (running) return void (again = true);
    running = true;
    work()
      .catch(onError)
      .finally(() => {
        running = false;
        if (again) {
          again = false;
          run();
        }
      });
  };
  return run;
}
