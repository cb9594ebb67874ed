import { describe, expect, test } from 'vitest';
import { MiniChessBoard } from '../../shared/minichess/index.js';
import { parsePosition } from '../../shared/minichess/notation.js';
import { search } from '../engine/search.js';
import { ENGINE_SEARCH_OPTIONS } from './bots.js';
import { MiniChessSearchBoard } from './search-board.js';
import { randomWalk } from './test-walk.js';

function load(text: string): MiniChessSearchBoard {
  const parsed = parsePosition(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return MiniChessSearchBoard.fromPosition(parsed.value);
}

/** The moves the rules' own generator gives, its count as it returns it (negative: game over). */
function rulesMoves(board: MiniChessBoard, noisy: boolean): number[] {
  const out = new Int32Array(board.maxMoves);
  const count = noisy ? board.generateNoisyMoves(out, 0) : board.generateMoves(out, 0);
  return [count, ...out.subarray(0, Math.max(count, 0))];
}

function wasmMoves(board: MiniChessSearchBoard, noisy: boolean): number[] {
  const out = new Int32Array(board.maxMoves);
  const count = noisy ? board.generateNoisyMoves(out, 0) : board.generateMoves(out, 0);
  return [count, ...out.subarray(0, Math.max(count, 0))];
}

describe('the WebAssembly move generator', () => {
  test("gives the rules' moves and captures in their order over 10,000 positions, two boards taking turns with the module", () => {
    let positions = 0;
    let kingTakes = 0;
    for (let seed = 1; positions < 10_000; seed += 2) {
      // Two walks in step: each board's first scan after the other's must copy its own pieces in.
      const walks = [randomWalk(seed, 400), randomWalk(seed + 1, 400)];
      for (let done = false; !done; ) {
        done = true;
        for (const walk of walks) {
          const next = walk.next();
          if (next.done) continue;
          done = false;
          const board = next.value;
          for (const noisy of [false, true]) expect(wasmMoves(board, noisy)).toEqual(rulesMoves(board.board, noisy));
          positions++;
          if (board.board.kingCapture() !== undefined) kingTakes++;
        }
      }
    }
    expect(positions).toBeGreaterThanOrEqual(10_000);
    // A king to take is among the positions compared; no move at all is too rare to meet by chance.
    expect(kingTakes).toBeGreaterThan(100);
    for (const board of ['RRRRR/PPPPP/PPP2/PKP2/PPP2/4k w 1', '4K/ppp2/pkp2/ppp2/ppppp/rrrrr b 2'].map(load)) {
      expect(board.board.outcome()?.reason).toBe('no-moves');
      for (const noisy of [false, true]) expect(wasmMoves(board, noisy)).toEqual(rulesMoves(board.board, noisy));
      expect(wasmMoves(board, true)[0]).toBe(-1);
    }
  });

  test('leaves the search as it was: the same move, score, principal variation and nodes as on the rules generator', () => {
    const positions = [...randomWalk(77, 120)].filter((_, i) => i % 3 === 0).map((board) => board.board.toPosition());
    let compared = 0;
    for (const position of positions) {
      if (MiniChessBoard.fromPosition(position).outcome()) continue;
      const [wasm, ts] = (['wasm', 'ts'] as const).map((generator) => {
        const report = search(MiniChessSearchBoard.fromPosition(position, generator), { ...ENGINE_SEARCH_OPTIONS, maxDepth: 6 });
        return { move: report.move, score: report.score, pv: report.pv, nodes: report.nodes };
      });
      expect(wasm).toEqual(ts);
      compared++;
    }
    expect(compared).toBeGreaterThan(20);
  });
});
