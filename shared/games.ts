import { opposite, type Color } from './color.js';
import type { MutableBoard } from './board.js';
import { GomokuBoard, gomokuRules, renderBoard as renderGomoku, type GomokuPosition } from './gomoku/index.js';
import { MiniChessBoard, minichessRules, renderBoard as renderMiniChess, type MiniChessPosition } from './minichess/index.js';
import { othelloBoardOf, othelloRules, renderOthello, type OthelloPosition } from './othello/index.js';
import type { GameId, Rules } from './rules.js';

export type Position = OthelloPosition | GomokuPosition | MiniChessPosition;

/** What the tools around the rules need of a game: its rules, its mutable board, a diagram. */
export interface Game<P extends Position = Position> {
  readonly id: GameId;
  readonly rules: Rules<P>;
  /** Whether a side can ever have to pass (`shared/forced-pass.ts`): Othello only. */
  readonly passes: boolean;
  board(position: P): MutableBoard;
  render(position: P): string;
}

const othello: Game<OthelloPosition> = { id: 'othello', rules: othelloRules, passes: true, board: othelloBoardOf, render: renderOthello };
const gomoku: Game<GomokuPosition> = { id: 'gomoku', rules: gomokuRules, passes: false, board: (p) => GomokuBoard.fromPosition(p), render: renderGomoku };
const minichess: Game<MiniChessPosition> = {
  id: 'minichess',
  rules: minichessRules,
  passes: false,
  board: (p) => MiniChessBoard.fromPosition(p),
  render: renderMiniChess,
};

/**
 * Every game behind the one interface. Each entry is typed for its own positions; callers that
 * hold a position of the same game pass it back, which the `game` field of a position guarantees.
 */
export const GAMES: Readonly<Record<GameId, Game>> = {
  othello: othello as unknown as Game,
  gomoku: gomoku as unknown as Game,
  minichess: minichess as unknown as Game,
};

const FIRST_MOVER = Object.fromEntries(Object.values(GAMES).map((g) => [g.id, g.rules.toMove(g.rules.start())])) as Record<GameId, Color>;

/** The colour that moves first: black, but white in MiniChess. */
export function firstMover(game: GameId): Color {
  return FIRST_MOVER[game];
}

/**
 * The colour to move at `ply`. In all three games the sides alternate (an Othello pass is a
 * move), so the ply says it with no position loaded.
 */
export function moverAt(game: GameId, ply: number): Color {
  return ply % 2 === 0 ? FIRST_MOVER[game] : opposite(FIRST_MOVER[game]);
}
