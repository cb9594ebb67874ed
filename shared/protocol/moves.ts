import { opposite, type Color } from '../color.js';
import { GAMES } from '../games.js';
import type { TimeControl } from './schemas.js';
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
    moveMs: [...view.moves.map((_, i) => view.moveMs?.[i] ?? null), event.spentMs ?? null],
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

/**
 * The clock left after each move, from the times spent (`GameView.moveMs`): with a bank, the
 * mover's bank less its time plus the increment, as the server counts; per move, the move's time
 * less what was spent; null without a time control, or once a time on that side is unknown.
 * `first` is the colour of the first move (the sides alternate).
 */
export function clockAfterMoves(control: TimeControl, moveMs: readonly (number | null)[], first: Color): (number | null)[] {
  const bank: Record<Color, number | null> = { black: null, white: null };
  if (control.kind === 'bank') bank.black = bank.white = control.initialMs;
  return moveMs.map((ms, i) => {
    const mover = i % 2 === 0 ? first : opposite(first);
    if (control.kind === 'none' || ms === null) return (bank[mover] = null);
    if (control.kind === 'per-move') return Math.max(0, control.moveMs - ms);
    const left = bank[mover];
    return (bank[mover] = left === null ? null : Math.max(0, left - ms) + control.incrementMs);
  });
}
