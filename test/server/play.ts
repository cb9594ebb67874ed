import type { Color } from '../../shared/color.js';
import { GAMES } from '../../shared/games.js';
import { replay } from '../../shared/record.js';
import { applyMoved, type GameView, type MovedEvent } from '../../shared/protocol/index.js';
import type { Client } from '../support/server.js';

/**
 * Plays `color` with random legal moves until the game ends; returns the last view.
 * Waits for the opponent's moves through the broadcast, as a real client does.
 */
export async function playRandomly(client: Client, gameId: string, token: string, color: Color, start: GameView): Promise<GameView> {
  let view = start;
  while (view.status !== 'finished') {
    // A forced pass is played by the server at once: the player waits for it like for a move.
    const forced = view.legal.length === 1 && view.legal[0] === 'pass';
    if (view.status === 'live' && view.toMove === color && !forced) {
      const move = view.legal[Math.floor(Math.random() * view.legal.length)]!;
      const ack = await client.ask<{ moved: MovedEvent }>('move', { gameId, token, ply: view.ply, move });
      if (!ack.ok) throw new Error(`move ${move} at ply ${view.ply} refused: ${ack.error.code}`);
      view = applyMoved(view, ack.moved)!;
      continue;
    }
    const ply = view.ply;
    const before = view;
    view = await Promise.race([
      client.waitFor<MovedEvent>('moved', (e) => e.gameId === gameId && e.ply === ply).then((e) => applyMoved(before, e)!),
      client.waitFor<{ view: GameView }>('ended', (e) => e.view.id === gameId).then((e) => e.view),
      client.waitFor<GameView>('state', (v) => v.id === gameId && (v.status !== view.status || v.ply > ply)),
    ]);
  }
  return view;
}

/** The server's result agrees with the rules when its record is replayed from the start. */
export function rulesAgree(view: GameView): boolean {
  const game = GAMES[view.game];
  const start = game.rules.parsePosition(view.start);
  if (!start.ok) return false;
  const replayed = replay(game.rules, start.value, view.moves.join(' '));
  if (!replayed.ok) return false;
  const outcome = game.rules.outcome(replayed.value.positions.at(-1)!);
  return outcome !== null && outcome.winner === view.result?.winner && outcome.reason === view.result?.reason;
}
