import type { Color } from '../../shared/color.js';
import { GAMES, type Position } from '../../shared/games.js';
import type { GameId, GameOptions, Outcome } from '../../shared/rules.js';

/**
 * The client's reading of a game, computed with the very rules the server runs (shared/): the
 * position, the side to move and its legal moves, in the game's notation. The same for every
 * game; what is particular to one is in `games/`.
 */
export interface Snapshot {
  readonly game: GameId;
  readonly options: GameOptions;
  readonly position: Position;
  readonly moves: readonly string[];
  readonly toMove: Color;
  readonly legal: readonly string[];
  readonly outcome: Outcome | null;
}

export function parsePosition(game: GameId, text: string, options: GameOptions = {}): Position {
  const parsed = GAMES[game].rules.parsePosition(text, options);
  if (!parsed.ok) throw new Error(`The server sent a ${game} position this client cannot read: ${parsed.error.message}`);
  return parsed.value;
}

export function snapshot(game: GameId, options: GameOptions, position: Position, moves: readonly string[]): Snapshot {
  const { rules } = GAMES[game];
  const outcome = rules.outcome(position);
  const legal = outcome ? [] : rules.legalMoves(position).map((m) => rules.formatMove(m));
  return { game, options, position, moves, toMove: rules.toMove(position), legal, outcome };
}

/** The position after `move`, or undefined when the rules refuse it. */
export function playMove(game: GameId, position: Position, move: string): Position | undefined {
  const { rules } = GAMES[game];
  const parsed = rules.parseMove(move);
  if (!parsed.ok || rules.check(position, parsed.value)) return undefined;
  return rules.play(position, parsed.value);
}

/** Every position of a game: the start, then after each move (stops at a move it cannot play). */
export function positionsOf(game: GameId, options: GameOptions, start: string, moves: readonly string[]): Position[] {
  const positions: Position[] = [parsePosition(game, start, options)];
  for (const move of moves) {
    const next = playMove(game, positions.at(-1)!, move);
    if (!next) break;
    positions.push(next);
  }
  return positions;
}
