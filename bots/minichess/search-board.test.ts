import { describe, expect, test } from 'vitest';
import { MiniChessBoard, SQUARE_COUNT, formatPlacement, parsePlacement, type MiniChessPosition } from '../../shared/minichess/index.js';
import { formatMove, parseMove, parsePosition } from '../../shared/minichess/notation.js';
import { CAPTURE_ORDER, MiniChessSearchBoard } from './search-board.js';
import { seededBelow } from '../../shared/random.js';

function position(text: string): MiniChessPosition {
  const parsed = parsePosition(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

function load(text: string): MiniChessSearchBoard {
  return MiniChessSearchBoard.fromPosition(position(text));
}

function move(text: string): number {
  const parsed = parseMove(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

function play(board: MiniChessSearchBoard, moves: string): MiniChessSearchBoard {
  for (const text of moves.split(' ')) board.make(move(text));
  return board;
}

/** The same game seen from the other side: the board turned half round, colours swapped. */
function mirrored(p: MiniChessPosition): MiniChessPosition {
  const squares = parsePlacement(p.board);
  if (!squares.ok) throw new Error(squares.error.message);
  const turned = new Int8Array(SQUARE_COUNT);
  for (let square = 0; square < SQUARE_COUNT; square++) turned[SQUARE_COUNT - 1 - square] = -squares.value[square]!;
  return { ...p, board: formatPlacement(turned), toMove: p.toMove === 'white' ? 'black' : 'white' };
}

function movesOf(board: MiniChessSearchBoard, noisy = false): string[] {
  const buffer = new Int32Array(board.maxMoves);
  const count = noisy ? board.generateNoisyMoves(buffer, 0) : board.generateMoves(buffer, 0);
  return Array.from(buffer.subarray(0, Math.max(count, 0)), formatMove).sort();
}

/** Positions from random games, walked with make/unmake so the incremental state gets exercised. */
function randomWalk(seed: number, visit: (board: MiniChessSearchBoard) => void): void {
  const random = seededBelow(seed);
  const board = MiniChessSearchBoard.fromPosition(MiniChessBoard.start().toPosition());
  const buffer = new Int32Array(board.maxMoves);
  for (let step = 0; step < 300; step++) {
    const count = board.generateMoves(buffer, 0);
    // Back up now and then (always at a finished game), so unmake is tested as much as make.
    if (count === 0 || (board.board.madeMoves > 0 && random(4) === 0)) {
      if (board.board.madeMoves === 0) break;
      board.unmake();
    } else {
      board.make(buffer[random(count)]!);
    }
    visit(board);
  }
}

describe('Zobrist key', () => {
  // Move orders that reach one position at one ply, and placements met at different plies.
  const transpositions = [
    ['b2b3 d5d4 c2c3', 'c2c3 d5d4 b2b3'],
    ['b1c3 d6c4', 'b1a3 d6c4 a3b1 c4d6 b1c3 d6c4'],
    ['c2c3 b5b4 c3b4 c5c4 d2d3 c4d3', 'd2d3 c5c4 c2c3 b5b4 c3b4 c4d3'],
  ] as const;

  test.each(transpositions)('%s and %s reach the same position and key only at the same ply', (first, second) => {
    const a = play(MiniChessSearchBoard.fromPosition(MiniChessBoard.start().toPosition()), first);
    const b = play(MiniChessSearchBoard.fromPosition(MiniChessBoard.start().toPosition()), second);
    expect(a.board.toPosition().board).toBe(b.board.toPosition().board);
    const sameKey = a.hashHi() === b.hashHi() && a.hashLo() === b.hashLo();
    expect(sameKey).toBe(a.board.ply === b.board.ply);
  });

  test('the ply and the side to move are part of the key', () => {
    const keys = ['kqbnr/ppppp/5/5/PPPPP/RNBQK w 1', 'kqbnr/ppppp/5/5/PPPPP/RNBQK w 3', 'kqbnr/ppppp/5/5/PPPPP/RNBQK b 3'].map((text) => {
      const board = load(text);
      return `${board.hashHi()}:${board.hashLo()}`;
    });
    expect(new Set(keys).size).toBe(3);
  });

  test('the incremental key and score equal those computed from scratch, through random makes and unmakes', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      randomWalk(seed, (board) => {
        const fresh = MiniChessSearchBoard.fromPosition(board.board.toPosition());
        expect([board.hashHi(), board.hashLo(), board.evaluate()]).toEqual([fresh.hashHi(), fresh.hashLo(), fresh.evaluate()]);
      });
    }
  });

  test('unmaking every move restores the starting key', () => {
    const board = MiniChessSearchBoard.fromPosition(MiniChessBoard.start().toPosition());
    const start = [board.hashHi(), board.hashLo(), board.evaluate()];
    play(board, 'c2c3 b5b4 c3b4 c5c4 b4b5 c4c3 b5a6 c3b2 a6b6 b2a1');
    while (board.board.madeMoves > 0) board.unmake();
    expect([board.hashHi(), board.hashLo(), board.evaluate()]).toEqual(start);
  });
});

describe('evaluate', () => {
  test('gives the same score to the side to move in a position and in its colour mirror', () => {
    const fixed = [
      'kqbnr/ppppp/5/5/PPPPP/RNBQK w 1',
      'kqbnr/ppppp/5/5/PPPPP/RNBQK b 2',
      '2n1k/1P3/5/5/5/K4 w 7',
      'k4/5/2Q2/5/P4/R1n1K b 40',
      'kq3/5/5/5/5/R3K w 48',
    ];
    for (const text of fixed) expect(MiniChessSearchBoard.fromPosition(mirrored(position(text))).evaluate()).toBe(load(text).evaluate());
    for (const seed of [11, 12]) {
      randomWalk(seed, (board) => {
        const p = board.board.toPosition();
        expect(MiniChessSearchBoard.fromPosition(mirrored(p)).evaluate()).toBe(board.evaluate());
      });
    }
  });

  test('counts material: a side a queen up is far ahead', () => {
    expect(load('kqbnr/ppppp/5/5/PPPPP/RNB1K w 1').evaluate()).toBeLessThan(-700);
    expect(load('kqbnr/ppppp/5/5/PPPPP/RNB1K b 2').evaluate()).toBeGreaterThan(700);
  });

  test('values a pawn more the nearer it is to promotion', () => {
    const scores = ['k4/5/5/5/P4/4K w 1', 'k4/5/5/P4/5/4K w 1', 'k4/5/P4/5/5/4K w 1', 'k4/P4/5/5/5/4K w 1'].map((text) => load(text).evaluate());
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
    expect(new Set(scores).size).toBe(scores.length);
  });

  test('near the step limit the rules count outweighs pawns that will not have time to promote', () => {
    // Black's rook (6 on the count of docs/rules.md §MiniChess) against two white pawns a step from promotion (2 each).
    expect(load('kr3/3PP/5/5/5/3K1 b 10').evaluate()).toBeLessThan(0);
    expect(load('kr3/3PP/5/5/5/3K1 b 50').evaluate()).toBeGreaterThan(0);
  });
});

describe('terminal positions', () => {
  // docs/rules.md §MiniChess, "End of the game"; the positions are those of shared/minichess/rules.test.ts.
  const results = [
    ['k4/5/5/5/5/R3K w 1', 1], // white can take the king
    ['kq3/5/5/5/5/R3K w 51', -1], // step limit: black has more
    ['k4/5/5/5/5/Q3K b 51', -1],
    ['k4/5/5/5/5/4K w 51', 0],
    ['k4/5/5/5/5/R3K b 51', -1],
    ['RRRRR/PPPPP/PPP2/PKP2/PPP2/4k w 1', -1], // no move at all
    ['4K/ppp2/pkp2/ppp2/ppppp/rrrrr b 2', -1],
  ] as const;
  test.each(results)('%s: result %i, and no noisy moves', (text, result) => {
    const board = load(text);
    expect(board.generateMoves(new Int32Array(board.maxMoves), 0)).toBe(0);
    expect(board.result()).toBe(result);
    expect(board.generateNoisyMoves(new Int32Array(board.maxMoves), 0)).toBe(-1);
  });

  test('after ply 50 the count decides even where the king could be taken', () => {
    const board = load('kq3/5/5/5/5/R3K w 51');
    expect(board.board.canCaptureKing()).toBe(true);
    expect(board.result()).toBe(-1); // white 106 against black 120
  });
});

describe('noisy moves and ordering', () => {
  test('noisy moves are the captures and the promotions', () => {
    expect(movesOf(load('3nk/1P3/5/2q2/1P1P1/R3K w 1'), true)).toEqual(['b2c3', 'b5b6', 'd2c3']);
    expect(movesOf(load('4k/5/5/5/5/R3K b 1'), true)).toEqual([]);
    expect(movesOf(load('k4/5/5/5/p4/1R2K b 1'), true)).toEqual(['a2a1', 'a2b1']);
    for (const text of ['3nk/1P3/5/2q2/1P1P1/R3K w 1', 'k4/5/5/5/p4/1R2K b 1']) {
      const board = load(text);
      expect(movesOf(board).filter((m) => board.isNoisy(move(m)))).toEqual(movesOf(board, true));
    }
  });

  test('the capture generator agrees with filtering all moves, game over included, through random games', () => {
    for (let seed = 1; seed <= 20; seed++) {
      randomWalk(seed, (board) => {
        const all = movesOf(board);
        const noisy = new Int32Array(board.maxMoves);
        const count = board.generateNoisyMoves(noisy, 0);
        if (all.length === 0) {
          expect(count).toBe(-1);
          return;
        }
        expect(count).toBeGreaterThanOrEqual(0);
        expect(Array.from(noisy.subarray(0, count), formatMove).sort()).toEqual(all.filter((m) => board.isNoisy(move(m))));
      });
    }
  });

  test('orders captures most valuable victim first, cheapest attacker next, then quiet moves', () => {
    // A pawn, a knight and a rook can each take the black queen on c3.
    const board = load('k4/5/2p2/2q2/1P3/1NR1K w 1');
    const ranked = movesOf(board)
      .map((text) => ({ text, order: board.orderScore(move(text)) }))
      .sort((a, b) => b.order - a.order)
      .map(({ text, order }) => (order >= CAPTURE_ORDER ? text : 'quiet'));
    expect(ranked.slice(0, 4)).toEqual(['b2c3', 'b1c3', 'c1c3', 'quiet']);
    expect(ranked.filter((text) => text !== 'quiet')).toHaveLength(3);
  });
});
