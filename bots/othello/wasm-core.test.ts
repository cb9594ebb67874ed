import { describe, expect, it } from 'vitest';
import { OthelloBoard, PASS } from '../../shared/othello/board.js';
import { formatOthelloMove } from '../../shared/othello/notation.js';
import { flip, flipped } from '../../shared/othello/flip.js';
import { othelloPerft } from '../../shared/othello/perft.js';
import { othelloBoardOf, othelloPositionOf, othelloRules } from '../../shared/othello/rules.js';
import { seededBelow } from '../../shared/random.js';
import { solve } from './endgame.js';
import { ffoPositions } from './ffo.js';
import { wasmBoardFlips, wasmBoardSolve, wasmFlips, wasmLegalMoves, wasmPerft } from './wasm-core.js';

// The WebAssembly core (dist/bots/othello/core.wasm, made by `npm run build`) against the TypeScript rules.

/**
 * A reproducible random game of `plies` plies (or until it ends), played on the board itself:
 * `randomPosition` does the same through the rules' positions, ten times slower for 10,000.
 */
function randomBoard(seed: number, plies: number): OthelloBoard {
  const board = OthelloBoard.start();
  const below = seededBelow(seed);
  const moves = new Int32Array(board.maxMoves);
  for (let i = 0; i < plies; i++) {
    const n = board.generateMoves(moves, 0);
    if (n === 0) break;
    board.make(moves[below(n)]!);
  }
  return board;
}

/** `board` played on at random (passes included) until at most `empties` are left or the game is over. */
function playDownTo(board: OthelloBoard, empties: number, seed: number): OthelloBoard {
  const played = board.clone();
  const below = seededBelow(seed);
  const moves = new Int32Array(played.maxMoves);
  while (64 - played.discCount('black') - played.discCount('white') > empties) {
    const n = played.generateMoves(moves, 0);
    if (n === 0) break;
    played.make(moves[below(n)]!);
  }
  return played;
}

/** The 10,000 positions: random games cut after 0 to 64 plies, so passes and finished games come too. */
const POSITIONS = Array.from({ length: 10_000 }, (_, seed) => othelloPositionOf(randomBoard(seed, seed % 65)));

/** The squares `flip.ts` flips for the side to move's disc on `square`, low squares first. */
function typescriptFlips(board: OthelloBoard, square: number): number[] {
  flip(board.pHi, board.pLo, board.oHi, board.oLo, square);
  const squares: number[] = [];
  for (let s = 0; s < 64; s++) if ((s < 32 ? flipped[1]! : flipped[0]!) & (1 << (s & 31))) squares.push(s);
  return squares;
}

describe('the WebAssembly Othello core', () => {
  // The TypeScript perft matches the table of docs/rules.md §Perft (shared/othello/othello.test.ts).
  it.each([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])('perft(%i) from the start is the TypeScript perft\'s count', (depth) => {
    expect(wasmPerft(othelloRules.start(), depth)).toBe(othelloPerft(OthelloBoard.start(), depth));
  });

  it('perft(9) from the start is 3005288 (Aart Bik\'s table)', () => {
    expect(wasmPerft(othelloRules.start(), 9)).toBe(3005288);
  });

  it('reads positions in the rules\' form: from the start black may play d3, c4, f5, e6, and f5 flips e5', () => {
    expect(wasmLegalMoves(othelloRules.start()).map(othelloRules.formatMove)).toEqual(['d3', 'c4', 'f5', 'e6']);
    expect(wasmFlips(othelloRules.start(), 37).map(othelloRules.formatMove)).toEqual(['e5']);
  });

  it('has the legal moves of the TypeScript rules in 10,000 random positions', () => {
    const kinds = { placements: 0, passes: 0, over: 0 };
    for (const position of POSITIONS) {
      const expected = othelloRules.legalMoves(position);
      expect(wasmLegalMoves(position), othelloRules.formatPosition(position)).toEqual(expected);
      if (expected.length === 0) kinds.over++;
      else if (expected[0] === PASS) kinds.passes++;
      else kinds.placements++;
    }
    // The sample must hold every kind of position, or the agreement says less than it seems.
    expect(kinds.passes).toBeGreaterThan(10);
    expect(kinds.over).toBeGreaterThan(10);
  });

  it('flips what the TypeScript flips for every legal move of 10,000 random positions, and nothing for a square that is no move', () => {
    let compared = 0;
    const differences: string[] = [];
    for (const position of POSITIONS) {
      const board = othelloBoardOf(position);
      for (let square = 0; square < 64; square++) {
        if (board.discAt(square) !== undefined) continue;
        const expected = typescriptFlips(board, square).join(' ');
        const actual = wasmBoardFlips(board, square).join(' ');
        if (actual !== expected) differences.push(`${othelloRules.formatPosition(position)} at ${square}: ${actual} instead of ${expected}`);
        compared++;
      }
    }
    expect(differences.length, differences.slice(0, 5).join('\n')).toBe(0);
    expect(compared).toBeGreaterThan(100_000);
  });

  it('counts perft as the TypeScript does from random positions, passes and finished games included', () => {
    for (const position of POSITIONS.filter((_, i) => i % 50 === 0)) {
      expect(wasmPerft(position, 5), othelloRules.formatPosition(position)).toBe(othelloPerft(othelloBoardOf(position), 5));
    }
  });
});

describe('wasmBoardSolve: the WebAssembly solver without the root', () => {
  // FFO #40-#44 (bots/othello/ffo.ts) played on at random to 2-12 empties: 40 positions from each.
  const endgames = ffoPositions().flatMap((ffo) => Array.from({ length: 40 }, (_, seed) => playDownTo(ffo.board, 2 + (seed % 11), 100 * ffo.id + seed)));

  it('finds the margin of the TypeScript solver in 200 endgames from the FFO positions', () => {
    const differences: string[] = [];
    let solved = 0;
    let passes = 0;
    for (const board of endgames) {
      const typescript = solve(board, { engine: 'ts' });
      if (!typescript) continue; // the game is over
      if (typescript.move === PASS) passes++;
      const wasm = wasmBoardSolve(board).score;
      if (wasm !== typescript.score) differences.push(`${othelloRules.formatPosition(othelloPositionOf(board))}: ${wasm} instead of ${typescript.score}`);
      solved++;
    }
    expect(differences.length, differences.slice(0, 5).join('\n')).toBe(0);
    expect(solved).toBeGreaterThan(180);
    expect(passes).toBeGreaterThan(0);
  });

  it('gives bounds outside a narrow window and the exact margin inside it', () => {
    for (const board of endgames.filter((_, i) => i % 10 === 0)) {
      const exact = wasmBoardSolve(board).score;
      expect(wasmBoardSolve(board, exact, exact + 1).score).toBeLessThanOrEqual(exact); // fails low: an upper bound
      expect(wasmBoardSolve(board, exact - 1, exact).score).toBeGreaterThanOrEqual(exact); // fails high: a lower bound
      expect(wasmBoardSolve(board, exact - 1, exact + 1).score).toBe(exact);
    }
  });

  it('scores a finished game by its discs, empties to the winner', () => {
    // Black has a1 and b1, white has nothing: nobody can move, black wins 64-0.
    expect(wasmBoardSolve(OthelloBoard.fromDiscs(0, 0b11, 0, 0, 'black')).score).toBe(64);
    expect(wasmBoardSolve(OthelloBoard.fromDiscs(0, 0b11, 0, 0, 'white')).score).toBe(-64);
    // Black a1, white b1 and h8: black's c1 is the only move, after which nobody can move: 3-1, so 62 with the empties.
    const blocked = OthelloBoard.fromDiscs(0, 0b1, 1 << 31, 0b10, 'black');
    expect(solve(blocked)!.score).toBe(62);
    expect(wasmBoardSolve(blocked).score).toBe(62);
  });
});

/** `count` random games played down to `fewest`..`most` empties, by turns. */
function randomEndgames(count: number, fewest: number, most: number, seed: number): OthelloBoard[] {
  return Array.from({ length: count }, (_, i) => playDownTo(OthelloBoard.start(), fewest + (i % (most - fewest + 1)), seed + i));
}

/** Both engines solve each board to the same margin and move through the same nodes (finished games: no answer from either). */
function expectSameOutcomes(boards: OthelloBoard[]): void {
  const differences: string[] = [];
  let solved = 0;
  for (const board of boards) {
    const expected = outcome(board, 'ts');
    const actual = outcome(board, 'wasm');
    if (actual !== expected) differences.push(`${othelloRules.formatPosition(othelloPositionOf(board))}: ${actual} instead of ${expected}`);
    if (expected !== 'none') solved++;
  }
  expect(differences.length, differences.slice(0, 5).join('\n')).toBe(0);
  expect(solved).toBeGreaterThan(boards.length * 0.9);
}

/** Score, move and node count: what must be the same whichever engine searches below the root. */
function outcome(board: OthelloBoard, engine: 'wasm' | 'ts', window: { alpha?: number; beta?: number } = {}): string {
  const result = solve(board, { ...window, engine });
  return result ? `${result.score} ${formatOthelloMove(result.move)} ${result.nodes} nodes` : 'none';
}

describe('the WebAssembly endgame solver against the TypeScript one', () => {
  // Random games played down to 8-16 empties: every tier, the table and its cut-offs are reached.
  const endgames = randomEndgames(300, 8, 16, 7000);

  it('finds the same margin and move through the same nodes in 300 random endgames of 8 to 16 empties', () => {
    expectSameOutcomes(endgames);
  });

  it('gives the same bounds through the same nodes in narrow windows', () => {
    for (const board of endgames.filter((_, i) => i % 10 === 0)) {
      const exact = solve(board)?.score;
      if (exact === undefined) continue;
      for (const window of [{ alpha: exact, beta: exact + 1 }, { alpha: exact - 1, beta: exact }, { alpha: exact - 9, beta: exact - 3 }]) {
        expect(outcome(board, 'wasm', window)).toBe(outcome(board, 'ts', window));
      }
    }
  });

  it('FFO #40 (20 empties): the same margin, move and nodes', { timeout: 120_000 }, () => {
    const ffo40 = ffoPositions()[0]!;
    expect(outcome(ffo40.board, 'wasm')).toBe(outcome(ffo40.board, 'ts'));
  });

  // FFO #40-#44 in WebAssembly take about 30 s on two cores: the margins are those of ffo.ts.
  it.each(ffoPositions().map((ffo) => [ffo.id, ffo] as const))('FFO #%i: the best margin and a move that reaches it', { timeout: 240_000 }, (_, ffo) => {
    const result = solve(ffo.board)!;
    expect(result.score).toBe(ffo.best);
    expect(ffo.margins.get(formatOthelloMove(result.move))).toBe(ffo.best);
  });

  it('gives up at a near deadline within milliseconds, then solves again from scratch', () => {
    const ffo42 = ffoPositions()[2]!;
    const started = performance.now();
    expect(solve(ffo42.board, { deadline: started + 20 })).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(250);
    expect(solve(ffo42.board, { deadline: started - 1 })).toBeUndefined();
    const board = endgames.find((b) => outcome(b, 'ts') !== 'none')!;
    expect(outcome(board, 'wasm')).toBe(outcome(board, 'ts'));
  });
});

// Minutes in TypeScript: run them with OTHELLO_ENDGAME_DEEP=1.
describe.runIf(process.env.OTHELLO_ENDGAME_DEEP === '1')('the WebAssembly endgame solver against the TypeScript one, deep', () => {
  it('finds the same margin and move through the same nodes in 40 random endgames of 17 to 20 empties', { timeout: 600_000 }, () => {
    expectSameOutcomes(randomEndgames(40, 17, 20, 9000));
  });

  it.each(ffoPositions().slice(1).map((ffo) => [ffo.id, ffo] as const))('FFO #%i: the same margin, move and nodes', { timeout: 600_000 }, (_, ffo) => {
    expect(outcome(ffo.board, 'wasm')).toBe(outcome(ffo.board, 'ts'));
  });
});

// perft(11) takes seconds in each engine: run it with OTHELLO_PERFT_11=1.
describe.runIf(process.env.OTHELLO_PERFT_11 === '1')('the WebAssembly Othello core, deep', () => {
  it('perft(11) from the start is 212258800 in both engines', () => {
    expect(wasmPerft(othelloRules.start(), 11)).toBe(212258800);
    expect(othelloPerft(OthelloBoard.start(), 11)).toBe(212258800);
  });
});
