import type { Color } from '../../shared/color.js';
import { GAMES, type Position } from '../../shared/games.js';
import { MiniChessBoard, parsePlacement, type MiniChessPosition } from '../../shared/minichess/index.js';
import type { GomokuPosition } from '../../shared/gomoku/index.js';
import type { OthelloPosition } from '../../shared/othello/index.js';
import type { GameId, GameOptions, Outcome } from '../../shared/rules.js';

/**
 * The client's reading of a game, computed with the very rules the server runs (shared/):
 * the position, the side to move and its legal moves, in the game's notation.
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

/** Othello: discs of each colour. */
export function discCounts(position: Position): { black: number; white: number } {
  const board = (position as OthelloPosition).board;
  let black = 0;
  let white = 0;
  for (const c of board) {
    if (c === 'X') black++;
    else if (c === 'O') white++;
  }
  return { black, white };
}

/** MiniChess: each side's material by the rules' piece values (the king's 100 included), which decides the game at the step limit. */
export function materialCounts(position: Position): { white: number; black: number } {
  const board = MiniChessBoard.fromPosition(position as MiniChessPosition);
  return { white: board.material('white'), black: board.material('black') };
}

/** MiniChess: piece codes by square (a1 = 0, b1 = 1, …; positive white, negative black). */
export function minichessSquares(position: Position): Int8Array {
  const parsed = parsePlacement((position as MiniChessPosition).board);
  return parsed.ok ? parsed.value : new Int8Array(30);
}

/** Gomoku: the stone on a point by file (0–14) and rank (1–15): 'X', 'O' or '.'. */
export function gomokuStone(position: Position, file: number, rank: number): string {
  return (position as GomokuPosition).board[(15 - rank) * 15 + file] ?? '.';
}

/** Gomoku: the winning run through the last move, as cell names from one end to the other. */
export function gomokuWinLine(position: Position, lastMove: string | undefined, exactFive = false): string[] | null {
  if (!lastMove) return null;
  const file = lastMove.charCodeAt(0) - 97;
  const rank = Number(lastMove.slice(1));
  const stone = gomokuStone(position, file, rank);
  if (stone === '.') return null;
  for (const [df, dr] of [
    [1, 0],
    [0, 1],
    [1, 1],
    [1, -1],
  ] as const) {
    const run: [number, number][] = [[file, rank]];
    for (const sign of [1, -1]) {
      let f = file + df * sign;
      let r = rank + dr * sign;
      while (f >= 0 && f < 15 && r >= 1 && r <= 15 && gomokuStone(position, f, r) === stone) {
        if (sign === 1) run.push([f, r]);
        else run.unshift([f, r]);
        f += df * sign;
        r += dr * sign;
      }
    }
    if (exactFive ? run.length === 5 : run.length >= 5) return run.map(([f, r]) => `${String.fromCharCode(97 + f)}${r}`);
  }
  return null;
}

export const GAME_TITLES: Record<GameId, string> = { othello: 'Othello', gomoku: 'Gomoku', minichess: 'MiniChess' };

export { firstMover } from '../../shared/games.js';
