import { describe, expect, test } from 'vitest';
import { MiniChessBoard, type MiniChessPosition } from '../../shared/minichess/index.js';
import { formatMove, parsePosition } from '../../shared/minichess/notation.js';
import { WIN } from '../engine/game.js';
import { search } from '../engine/search.js';
import { ENGINE_SEARCH_OPTIONS, createMiniChessEngineBot, seed004, seedEvaluate } from './bots.js';
import { MiniChessSearchBoard } from './search-board.js';

function position(text: string): MiniChessPosition {
  const parsed = parsePosition(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

function legalMoves(p: MiniChessPosition): number[] {
  const board = MiniChessBoard.fromPosition(p);
  const buffer = new Int32Array(board.maxMoves);
  return Array.from(buffer.subarray(0, board.generateMoves(buffer, 0)));
}

const generous = () => ({ deadline: performance.now() + 10_000 });

/** Positions along a game that seed-004 plays against itself from the start. */
function seedGame(plies: number): MiniChessPosition[] {
  const board = MiniChessBoard.start();
  const positions: MiniChessPosition[] = [];
  for (let i = 0; i < plies && !board.outcome(); i++) {
    positions.push(board.toPosition());
    board.make(seed004.think(board.toPosition(), { deadline: performance.now() + 50 }).move);
  }
  return positions;
}

describe('seed-004', () => {
  test('evaluates the start as level, up to its constant 240 for white', () => {
    // Seed 004 adds 12 a square for white and 4 for black, so white's view of a level game is +240.
    expect(seedEvaluate(MiniChessBoard.start())).toBe(240);
    expect(seedEvaluate(MiniChessBoard.fromPosition(position('kqbnr/ppppp/5/5/PPPPP/RNBQK b 2')))).toBe(-240);
  });

  test('plays legal moves', () => {
    for (const p of seedGame(12)) expect(legalMoves(p)).toContain(seed004.think(p, generous()).move);
  });

  test.each([
    ['4k/5/q4/5/5/R3K w 1', 'a1a4'], // the rook takes a queen no one defends
    ['4k/5/5/5/2n2/R2QK w 1', 'd1c2'], // the queen takes the knight that forks king and rook
    ['k4/5/5/5/5/R3K w 1', undefined], // the game is over: white can take the king
  ])('in %s plays %s', (text, expected) => {
    const p = position(text);
    if (expected === undefined) {
      expect(() => seed004.think(p, generous())).toThrow();
      return;
    }
    const report = seed004.think(p, generous());
    expect(formatMove(report.move)).toBe(expected);
    expect(report.depth).toBe(6);
  });

  test('answers with the last finished depth when the deadline is near', () => {
    const report = seed004.think(MiniChessBoard.start().toPosition(), { deadline: performance.now() + 1 });
    expect(legalMoves(MiniChessBoard.start().toPosition())).toContain(report.move);
    expect(report.depth).toBeLessThan(6);
  });
});

describe('the engine on MiniChessSearchBoard', () => {
  // Black's king on a6 is walled in by its own pawns: a rook on the sixth rank wins, whatever black does.
  test('finds the move after which the king falls whatever the reply', () => {
    const report = search(MiniChessSearchBoard.fromPosition(position('k4/pp3/5/5/4R/K4 w 1')), { ...ENGINE_SEARCH_OPTIONS, maxDepth: 4 });
    expect(formatMove(report.move)).toBe('e2e6');
    expect(report.score).toBe(WIN - 2);
  });

  test('steps out of attack onto the one square no black piece covers', () => {
    // The bishop on d4 eyes a1 and b2, the rook on a6 the a-file: only b1 is safe.
    const report = search(MiniChessSearchBoard.fromPosition(position('r3k/5/3b1/5/5/K4 w 1')), { ...ENGINE_SEARCH_OPTIONS, maxDepth: 3 });
    expect(formatMove(report.move)).toBe('a1b1');
  });

  // Black is a point ahead on the count of docs/rules.md §MiniChess (rook 6 + knight 7 + bishop 8 = 21 against a queen's 20).
  // Taking the knight costs the queen to the rook, unless no reply comes: on ply 50 it wins the game.
  test.each([
    [50, true],
    [20, false],
  ])('on ply %i, takes the defended knight: %s', (ply, takes) => {
    const report = search(MiniChessSearchBoard.fromPosition(position(`b2rk/5/3n1/5/5/K2Q1 w ${ply}`)), { ...ENGINE_SEARCH_OPTIONS, maxDepth: 6 });
    expect(formatMove(report.move) === 'd1d4').toBe(takes);
    if (takes) expect(report.score).toBe(WIN - 1);
  });

  test('going straight to quiescence at the horizon finds the same scores and moves', () => {
    for (const p of [...seedGame(12), position('k4/pp3/5/5/4R/K4 w 1'), position('2kbr/5/n4/5/5/Q2K1 b 49')]) {
      const run = (quiescenceAtHorizon: boolean) => search(MiniChessSearchBoard.fromPosition(p), { maxDepth: 4, quiescenceAtHorizon });
      const [plain, straight] = [run(false), run(true)];
      expect([straight.move, straight.score]).toEqual([plain.move, plain.score]);
    }
  });

  test('on ply 49 saves the attacked knight by moving it: a defender would come too late', () => {
    // Black leads 121 to 120 on the count; the queen on a1 attacks the knight on a4, and after
    // white's reply on ply 50 the game is over, so only a move to a square the queen does not reach keeps the lead.
    const report = search(MiniChessSearchBoard.fromPosition(position('2kbr/5/n4/5/5/Q2K1 b 49')), { ...ENGINE_SEARCH_OPTIONS, maxDepth: 4 });
    expect(['a4b6', 'a4c5']).toContain(formatMove(report.move));
    expect(report.score).toBe(WIN - 2);
  });
});

describe('createMiniChessEngineBot', () => {
  test('answers with a legal move within its budget, reporting its search', () => {
    const bot = createMiniChessEngineBot('engine-test', 50);
    for (const p of seedGame(6)) {
      const started = performance.now();
      const report = bot.think(p, generous());
      expect(legalMoves(p)).toContain(report.move);
      expect(performance.now() - started).toBeLessThan(500);
      expect(report.depth).toBeGreaterThan(0);
      expect(report.pv[0]).toBe(report.move);
    }
  });

  test('refuses a position of another game', () => {
    const bot = createMiniChessEngineBot('engine-test', 50);
    expect(() => bot.think({ game: 'gomoku', board: '', toMove: 'black' } as never, generous())).toThrow(/MiniChess/);
  });
});
