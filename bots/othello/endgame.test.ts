import { describe, expect, it } from 'vitest';
import { popcount } from '../../shared/othello/bitboard.js';
import { OthelloBoard, PASS } from '../../shared/othello/board.js';
import { formatOthelloMove } from '../../shared/othello/notation.js';
import { solve } from './endgame.js';
import { ffoPositions } from './ffo.js';
import { seededBelow } from '../../shared/random.js';

/** Plain minimax to the end of the game: the final margin for the side to move, empties to the winner. */
function minimax(board: OthelloBoard, buffer: Int32Array, ply: number): number {
  const offset = ply * 33;
  const count = board.generateMoves(buffer, offset);
  if (count === 0) {
    const p = popcount(board.pHi) + popcount(board.pLo);
    const o = popcount(board.oHi) + popcount(board.oLo);
    const empties = 64 - p - o;
    return p > o ? p - o + empties : p < o ? p - o - empties : 0;
  }
  let best = -Infinity;
  for (let i = 0; i < count; i++) {
    board.make(buffer[offset + i]!);
    best = Math.max(best, -minimax(board, buffer, ply + 1) || 0);
    board.unmake();
  }
  return best;
}

/** The margin of each legal move, by minimax. */
function moveMargins(board: OthelloBoard): Map<number, number> {
  const buffer = new Int32Array(33 * 80);
  const count = board.generateMoves(buffer, 0);
  const margins = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    const move = buffer[i]!;
    board.make(move);
    margins.set(move, -minimax(board, buffer, 1) || 0);
    board.unmake();
  }
  return margins;
}

/** Random games stopped at `empties` empty squares (not over, side to move able to place). */
function randomEndgames(seed: number, empties: number, count: number): OthelloBoard[] {
  const random = seededBelow(seed);
  const boards: OthelloBoard[] = [];
  const buffer = new Int32Array(33);
  while (boards.length < count) {
    const board = OthelloBoard.start();
    for (;;) {
      const n = board.generateMoves(buffer, 0);
      if (n === 0) break;
      const filled = popcount(board.pHi | board.oHi) + popcount(board.pLo | board.oLo);
      if (64 - filled <= empties) {
        if (buffer[0] !== PASS) boards.push(board.clone());
        break;
      }
      board.make(buffer[random(n)]!);
    }
  }
  return boards;
}

// Below the root, the WebAssembly core (the default) and its TypeScript reference.
describe.each(['wasm', 'ts'] as const)('endgame solver, %s below the root', (engine) => {
  it('matches plain minimax on random endgames of 1 to 8 empties', () => {
    let checked = 0;
    for (let empties = 1; empties <= 8; empties++) {
      for (const board of randomEndgames(1000 + empties, empties, empties <= 6 ? 30 : 8)) {
        const margins = moveMargins(board);
        const best = Math.max(...margins.values());
        const result = solve(board, { engine });
        expect(result?.score).toBe(best);
        expect(margins.get(result!.move)).toBe(best);
        checked++;
      }
    }
    expect(checked).toBe(6 * 30 + 2 * 8);
  });

  it('gives bounds outside a narrow window and the exact margin inside it', () => {
    for (const board of randomEndgames(7, 10, 10)) {
      const exact = solve(board, { engine })!.score;
      const above = solve(board, { engine, alpha: exact, beta: exact + 1 })!.score;
      const below = solve(board, { engine, alpha: exact - 1, beta: exact })!.score;
      expect(above).toBeLessThanOrEqual(exact); // fails low: an upper bound
      expect(below).toBeGreaterThanOrEqual(exact); // fails high: a lower bound
      expect(solve(board, { engine, alpha: exact - 1, beta: exact + 1 })!.score).toBe(exact);
    }
  });

  it('counts a position where the side to move must pass', () => {
    // White (to move) has no placement; black plays on and the solver answers with a pass.
    const board = OthelloBoard.fromDiscs(0, 0b11 | (1 << 8), 0, 0b100, 'white');
    const buffer = new Int32Array(33);
    expect(board.generateMoves(buffer, 0)).toBe(1);
    expect(buffer[0]).toBe(PASS);
    const result = solve(board, { engine })!;
    expect(result.move).toBe(PASS);
    expect(result.score).toBe(moveMargins(board).get(PASS));
  });

  it('answers undefined for a finished game and when the deadline has passed', () => {
    expect(solve(OthelloBoard.fromDiscs(-1, -1, 0, 0, 'black'), { engine })).toBeUndefined();
    const ffo40 = ffoPositions()[0]!;
    expect(solve(ffo40.board, { engine, deadline: performance.now() - 1 })).toBeUndefined();
  });

  // A few seconds alone; the long timeout is for a machine busy with other suites.
  it('solves FFO #40 (20 empties): a2 wins by 38', { timeout: 240_000 }, () => {
    // FFO #40, FForum; margins from the project's ffo-40-59.obf.
    const ffo40 = ffoPositions()[0]!;
    const result = solve(ffo40.board, { engine })!;
    expect(result.score).toBe(38);
    expect(ffo40.margins.get(formatOthelloMove(result.move))).toBe(38);
  });
});
