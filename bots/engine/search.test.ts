import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WIN, WIN_THRESHOLD, type SearchGame, type SearchReport } from './game.js';
import { search } from './search.js';

const LINES = [
  [0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6],
];

/** Tic-tac-toe with a deterministic pseudo-random evaluation: a small, exact test bed. */
class TicTacToe implements SearchGame {
  readonly maxMoves = 9;
  readonly cells = new Int8Array(9); // 1 = side that moved first, -1 = the other
  private readonly history: number[] = [];
  private toMove = 1;

  constructor(moves: number[] = [], private readonly salt = 0) {
    for (const m of moves) this.make(m);
  }

  private winner(): number {
    for (const [a, b, c] of LINES) {
      const v = this.cells[a!]!;
      if (v !== 0 && v === this.cells[b!] && v === this.cells[c!]) return v;
    }
    return 0;
  }

  generateMoves(out: Int32Array, offset: number): number {
    if (this.winner() !== 0) return 0;
    let n = 0;
    for (let i = 0; i < 9; i++) if (this.cells[i] === 0) out[offset + n++] = i;
    return n;
  }
  countMoves(): number {
    return this.generateMoves(new Int32Array(9), 0);
  }
  make(move: number): void {
    this.cells[move] = this.toMove;
    this.history.push(move);
    this.toMove = -this.toMove;
  }
  unmake(): void {
    this.cells[this.history.pop()!] = 0;
    this.toMove = -this.toMove;
  }
  private key(): number {
    let k = this.toMove === 1 ? 1 : 2;
    for (let i = 0; i < 9; i++) k = k * 3 + (this.cells[i]! + 1);
    return k;
  }
  hashHi(): number {
    return Math.imul(this.key(), 0x9e3779b1) ^ this.salt;
  }
  hashLo(): number {
    return Math.imul(this.key() ^ 0x5bd1e995, 0x85ebca6b);
  }
  evaluate(): number {
    return ((Math.imul(this.key() + this.salt, 0x2545f491) >>> 8) % 201) - 100;
  }
  result(): number {
    const w = this.winner();
    return w === 0 ? 0 : w === this.toMove ? 1 : -1;
  }
}

function minimax(game: TicTacToe, depth: number, ply: number): number {
  const moves = new Int32Array(9);
  const n = game.generateMoves(moves, 0);
  if (n === 0) return game.result() * (WIN - ply);
  if (depth === 0) return game.evaluate();
  let best = -Infinity;
  for (let i = 0; i < n; i++) {
    game.make(moves[i]!);
    best = Math.max(best, -minimax(game, depth - 1, ply + 1));
    game.unmake();
  }
  return best;
}

/** The game after the `picks`-th legal moves in turn (modulo their number), stopping if it ends. */
function afterPicks(picks: number[], salt: number): TicTacToe {
  const game = new TicTacToe([], salt);
  for (const p of picks) {
    const moves = new Int32Array(9);
    const n = game.generateMoves(moves, 0);
    if (n === 0) break;
    game.make(moves[p % n]!);
  }
  return game;
}

describe('search', () => {
  it('finds a win in one and blocks a win in one', () => {
    // X: 0 1, O: 3 4 → X to move wins at 2.
    expect(search(new TicTacToe([0, 3, 1, 4]), { maxDepth: 4 })).toMatchObject({ move: 2, score: WIN - 1 });
    // X: 0 1, O: 4 → O to move must block at 2.
    expect(search(new TicTacToe([0, 4, 1]), { maxDepth: 6 }).move).toBe(2);
  });

  it('finds a win in two (a fork) and solves the empty board as a draw', () => {
    // X: 0 8, O: 4 2. O threatens 6; X's block at 6 also threatens 3 and 7: a win on ply 3.
    const fork = search(new TicTacToe([0, 4, 8, 2]), { maxDepth: 9 });
    expect(fork).toMatchObject({ move: 6, score: WIN - 3 });
    expect(search(new TicTacToe(), { maxDepth: 9 }).score).toBe(0);
  });

  it('equals plain minimax at each depth, with and without the transposition table', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(8), { maxLength: 4 }), fc.integer(), fc.integer({ min: 1, max: 6 }), (picks, salt, depth) => {
        const start = afterPicks(picks, salt);
        if (start.countMoves() < 2) return;
        const exact = minimax(start, depth, 0) + 0;
        // In tic-tac-toe a transposition always has the same depth left, so the table must not
        // change the score either.
        for (const useTable of [false, true]) {
          for (const aspiration of [0, 10]) {
            const result = search(start, { maxDepth: depth, useTable, aspiration });
            expect(result.score).toBe(exact);
            start.make(result.move);
            expect(-minimax(start, depth - 1, 1) + 0).toBe(exact);
            start.unmake();
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('with late-move reductions, still equals plain minimax where no node is deep enough to reduce', () => {
    // Reductions start three plies above the horizon and never at the root: a 3-ply search has none.
    fc.assert(
      fc.property(fc.array(fc.nat(8), { maxLength: 4 }), fc.integer(), fc.integer({ min: 1, max: 3 }), (picks, salt, depth) => {
        const start = afterPicks(picks, salt);
        if (start.countMoves() < 2) return;
        expect(search(start, { maxDepth: depth, lateMoveReductions: true }).score).toBe(minimax(start, depth, 0) + 0);
      }),
      { numRuns: 100 },
    );
  });

  it('with late-move reductions, searches fewer nodes and still finds the fork and the draw', () => {
    const plain = search(new TicTacToe([], 3), { maxDepth: 7 });
    const reduced = search(new TicTacToe([], 3), { maxDepth: 7, lateMoveReductions: true });
    expect(reduced.nodes).toBeLessThan(plain.nodes);
    // A reduced move that turns out to beat alpha is searched again at full depth: wins are not lost.
    expect(search(new TicTacToe([0, 4, 8, 2]), { maxDepth: 9, lateMoveReductions: true })).toMatchObject({ move: 6, score: WIN - 3 });
    expect(search(new TicTacToe(), { maxDepth: 9, lateMoveReductions: true }).score).toBe(0);
  });

  it('with ProbCut, changes no score where the shallow searches still see the end of the game', () => {
    // Three plies more than the game can last and probes only from `plies` plies left: every
    // shallow search, nested ones included, reaches every game's end, so its verdict is exact and a
    // margin of 0 must cut only correctly. No table: an earlier iteration's entries would be read.
    let probed = 0;
    fc.assert(
      fc.property(fc.array(fc.nat(8), { maxLength: 3 }), fc.integer(), (picks, salt) => {
        const start = afterPicks(picks, salt);
        if (start.countMoves() < 3) return;
        const plies = start.countMoves() + 1;
        const probCut = { minDepth: plies, shallowDepth: (depth: number) => (probed++, depth - 1), margin: () => 0 };
        expect(search(start, { maxDepth: plies + 3, useTable: false, probCut }).score).toBe(minimax(start, plies, 0) + 0);
      }),
      { numRuns: 100 },
    );
    expect(probed).toBeGreaterThan(0);
  });

  it('with ProbCut, cuts: fewer nodes to the same depth', () => {
    const plain = search(new TicTacToe([], 3), { maxDepth: 9 });
    const cut = search(new TicTacToe([], 3), { maxDepth: 9, probCut: { minDepth: 4, shallowDepth: (depth) => depth - 3, margin: () => 30 } });
    expect(cut.nodes).toBeLessThan(plain.nodes);
  });

  it('reports each finished depth and stops at its node limit with a legal move', () => {
    const depths: number[] = [];
    const result = search(new TicTacToe(), { maxDepth: 9, onProgress: (r) => depths.push(r.depth) });
    expect(depths).toEqual(depths.map((_, i) => i + 1));
    expect(result.pv.length).toBeGreaterThan(0);
    const cut = search(new TicTacToe(), { nodeLimit: 300 });
    expect(cut.move).toBeGreaterThanOrEqual(0);
    expect(cut.move).toBeLessThan(9);
    expect(cut.nodes).toBeLessThan(300 + 256);
  });

  it('stopped during a depth, answers with a move that depth proved better than the last finished choice', () => {
    let changed = 0;
    fc.assert(
      fc.property(fc.array(fc.nat(8), { maxLength: 2 }), fc.integer(), fc.integer({ min: 20, max: 3000 }), (picks, salt, nodeLimit) => {
        const start = afterPicks(picks, salt);
        if (start.countMoves() < 2) return;
        let finished: SearchReport | undefined;
        const result = search(start, { nodeLimit, answerFromUnfinishedDepth: true, onProgress: (r) => (finished = r) });
        if (!finished || result.move === finished.move) return;
        changed++;
        // In tic-tac-toe the table changes no score: the unfinished depth's values are minimax's.
        const valueAfter = (move: number): number => {
          start.make(move);
          const value = -minimax(start, finished!.depth, 1);
          start.unmake();
          return value;
        };
        expect(valueAfter(result.move)).toBeGreaterThan(valueAfter(finished.move));
        expect(result.depth).toBe(finished.depth);
      }),
      { numRuns: 300 },
    );
    expect(changed).toBeGreaterThan(0);
  });

  it('with answerFromOddDepths, answers as the deepest odd depth did, unless a deeper one proves a result', () => {
    let earlier = 0;
    fc.assert(
      fc.property(fc.array(fc.nat(8), { maxLength: 3 }), fc.integer(), fc.integer({ min: 2, max: 7 }), (picks, salt, maxDepth) => {
        const start = afterPicks(picks, salt);
        if (start.countMoves() < 2) return;
        const depths: number[] = [];
        const result = search(start, { maxDepth, answerFromOddDepths: true, onProgress: (r) => depths.push(r.depth) });
        const deepest = depths[depths.length - 1]!;
        expect(result.depth % 2 === 1 || Math.abs(result.score) >= WIN_THRESHOLD).toBe(true);
        // Every depth is still searched and reported; only the answer waits for an odd one.
        expect(result.depth === deepest || result.depth === deepest - 1).toBe(true);
        if (result.depth < deepest) earlier++;
        const plain = search(afterPicks(picks, salt), { maxDepth: result.depth });
        expect({ move: result.move, score: result.score }).toEqual({ move: plain.move, score: plain.score });
      }),
      { numRuns: 200 },
    );
    expect(earlier).toBeGreaterThan(0);
    expect(() => search(new TicTacToe(), { answerFromOddDepths: true, answerFromUnfinishedDepth: true })).toThrow(/do not combine/);
  });

  it('is deterministic for a position and a depth', () => {
    const a = search(new TicTacToe([4], 7), { maxDepth: 6 });
    const b = search(new TicTacToe([4], 7), { maxDepth: 6 });
    expect({ ...a, ms: 0, nps: 0 }).toEqual({ ...b, ms: 0, nps: 0 });
  });
});
