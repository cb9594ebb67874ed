import type { MutableBoard } from '../../shared/board.js';
import { OthelloBoard } from '../../shared/othello/board.js';
import { othelloPerft } from '../../shared/othello/perft.js';
import { perft } from '../../shared/perft.js';
import { wasmBoardPerft } from '../othello/wasm-core.js';

/** Who counts: the TypeScript perft, or Othello's WebAssembly core (`bots/othello/wasm-core.ts`). */
export const PERFT_ENGINES = ['ts', 'wasm'] as const;
export type PerftEngine = (typeof PERFT_ENGINES)[number];

/** The fastest exact perft for the board in the engine: Othello's own, else the generic one. */
export function leaves(board: MutableBoard, depth: number, engine: PerftEngine = 'ts'): number {
  if (engine === 'wasm') {
    if (!(board instanceof OthelloBoard)) throw new Error('The WebAssembly perft counts Othello only.');
    return wasmBoardPerft(board, depth);
  }
  return board instanceof OthelloBoard ? othelloPerft(board, depth) : perft(board, depth);
}

/**
 * Splits perft(depth) into independent pieces: every line of `split` plies from the root (a line
 * that ends the game early is counted at once). Returns the lines and the leaves counted already.
 */
export function splitTree(board: MutableBoard, depth: number, split: number): { lines: number[][]; counted: number } {
  const lines: number[][] = [];
  let counted = 0;
  const path: number[] = [];
  const walk = (left: number): void => {
    if (depth - path.length === 0) {
      counted += 1;
      return;
    }
    if (left === 0) {
      lines.push([...path]);
      return;
    }
    const buffer = new Int32Array(board.maxMoves);
    const n = board.generateMoves(buffer, 0);
    if (n === 0) {
      counted += 1;
      return;
    }
    for (let i = 0; i < n; i++) {
      path.push(buffer[i]!);
      board.make(buffer[i]!);
      walk(left - 1);
      board.unmake();
      path.pop();
    }
  };
  walk(Math.min(split, depth));
  return { lines, counted };
}
