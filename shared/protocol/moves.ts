import { GAMES } from '../games.js';
import type { GameView, MovedEvent } from './views.js';

/**
 * The view after a `moved` event, made with the rules as the server made it: the view itself when
 * the event is one it has already seen, undefined when the event does not follow it (a missed
 * event: ask `room:sync` for the whole view) or its move does not parse.
 */
export function applyMoved(view: GameView, event: MovedEvent): GameView | undefined {
  if (event.gameId !== view.id) return undefined;
  if (event.ply < view.ply) return view;
  if (event.ply > view.ply) return undefined;
  const { rules } = GAMES[view.game];
  const position = rules.parsePosition(view.position, view.options);
  const move = rules.parseMove(event.move);
  if (!position.ok || !move.ok) return undefined;
  const next = rules.play(position.value, move.value);
  return {
    ...view,
    moves: [...view.moves, event.move],
    position: rules.formatPosition(next),
    toMove: rules.toMove(next),
    ply: view.ply + 1,
    legal: event.status === 'finished' ? [] : rules.legalMoves(next).map((m) => rules.formatMove(m)),
    clock: { ...view.clock, ...event.clock },
    status: event.status,
    result: event.result,
    drawOffer: event.drawOffer,
  };
}
