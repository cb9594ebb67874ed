import { formatOthelloMove } from '../../shared/othello/notation.js';
import { solve } from './endgame.js';
import { ffoPositions } from './ffo.js';

export interface FfoBenchResult {
  /** FFO position number, 40–44. */
  readonly id: number;
  /** The solver's move, e.g. `a2`. */
  readonly move: string;
  /** The solver's margin for the side to move. */
  readonly score: number;
  /** The best margin in the test file. */
  readonly expected: number;
  /** True when the score is the expected margin and the move is one that reaches it. */
  readonly correct: boolean;
  readonly nodes: number;
  readonly ms: number;
}

/** Solves FFO #40–#44 one after the other, each from a cleared table, `engine` searching below the root. */
export function benchFfo(engine: 'wasm' | 'ts' = 'wasm'): FfoBenchResult[] {
  return ffoPositions().map((position) => {
    const result = solve(position.board, { engine });
    if (!result) throw new Error(`FFO #${position.id}: the solver gave no answer`);
    const move = formatOthelloMove(result.move);
    return {
      id: position.id,
      move,
      score: result.score,
      expected: position.best,
      correct: result.score === position.best && position.margins.get(move) === position.best,
      nodes: result.nodes,
      ms: result.ms,
    };
  });
}
