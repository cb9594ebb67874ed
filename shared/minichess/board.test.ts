import { describe, expect, test } from 'vitest';
import { perft } from '../perft.js';
import { MiniChessBoard, PIECE_VALUES, QUEEN, START_PLACEMENT, formatPlacement, makeMove, parsePlacement, squareOf, type MiniChessPosition } from './board.js';
import { parseMove, parsePosition } from './notation.js';

function load(text: string): MiniChessBoard {
  const position = parsePosition(text);
  if (!position.ok) throw new Error(position.error.message);
  return MiniChessBoard.fromPosition(position.value);
}

function move(text: string): number {
  const parsed = parseMove(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

/** Leaves at `depth` (or earlier, where the game ended) in which the side to move can take the king. */
function kingCaptureLeaves(board: MiniChessBoard, depth: number): number {
  const buffer = new Int32Array(board.maxMoves);
  const n = depth === 0 ? 0 : board.generateMoves(buffer, 0);
  if (n === 0) return !board.isStepLimitReached() && board.canCaptureKing() ? 1 : 0;
  let leaves = 0;
  for (const m of buffer.subarray(0, n)) {
    board.make(m);
    leaves += kingCaptureLeaves(board, depth - 1);
    board.unmake();
  }
  return leaves;
}

describe('perft from the start', () => {
  // docs/rules.md §Perft, MiniChess (the course project's generator): depth, leaves, king-capture leaves.
  const table = [
    [1, 7, 0],
    [2, 49, 0],
    [3, 452, 2],
    [4, 4214, 46],
    [5, 46406, 893],
  ] as const;
  test.each(table)('depth %i: %i leaves, %i of them king captures', (depth, leaves, kingCaptures) => {
    const board = MiniChessBoard.start();
    expect(perft(board, depth)).toBe(leaves);
    expect(kingCaptureLeaves(board, depth)).toBe(kingCaptures);
    expect(board.toPosition()).toEqual(MiniChessBoard.start().toPosition());
  });
});

describe('MiniChessBoard', () => {
  test('starts with both sides at full material and white to move at ply 1', () => {
    const board = MiniChessBoard.start();
    const full = 5 * PIECE_VALUES.pawn + PIECE_VALUES.rook + PIECE_VALUES.knight + PIECE_VALUES.bishop + PIECE_VALUES.queen + PIECE_VALUES.king;
    expect([board.material('white'), board.material('black'), board.materialBalance()]).toEqual([full, full, 0]);
    expect([board.sideToMove, board.ply, board.madeMoves]).toEqual(['white', 1, 0]);
    expect(board.toPosition()).toEqual({ game: 'minichess', board: START_PLACEMENT, toMove: 'white', ply: 1 });
  });

  test('generates nothing where the side to move can take the king, and says why', () => {
    const board = load('k4/5/5/5/5/R3K w 1');
    expect(board.canCaptureKing()).toBe(true);
    expect(board.generateMoves(new Int32Array(board.maxMoves), 0)).toBe(0);
    expect(board.countMoves()).toBe(0);
    expect(board.outcome()).toEqual({ winner: 'white', reason: 'king-capture' });
  });

  test('generates nothing once the 50th ply has been played', () => {
    const board = load(`${START_PLACEMENT} w 51`);
    expect(board.countMoves()).toBe(0);
    expect(board.outcome()).toEqual({ winner: null, reason: 'step-limit' });
    expect(load(`${START_PLACEMENT} b 50`).countMoves()).toBe(7);
  });

  test('promotes on make, counts the queen in material, and unmake restores the pawn', () => {
    const board = load('2n1k/1P3/5/5/5/K4 w 7');
    const before = board.toPosition();
    board.make(move('b5c6'));
    expect(board.pieceAt(squareOf(2, 6))).toBe(QUEEN);
    expect(board.material('white')).toBe(PIECE_VALUES.king + PIECE_VALUES.queen);
    expect(board.material('black')).toBe(PIECE_VALUES.king);
    expect(board.toPosition()).toEqual({ game: 'minichess', board: '2Q1k/5/5/5/5/K4', toMove: 'black', ply: 8 });
    board.unmake();
    expect(board.toPosition()).toEqual(before);
    expect([board.material('white'), board.material('black')]).toEqual([102, 107]);
  });

  test('keeps its move stack beyond any ordinary game length', () => {
    const board = MiniChessBoard.start();
    const out = makeMove(squareOf(1, 1), squareOf(0, 3));
    const back = makeMove(squareOf(0, 3), squareOf(1, 1));
    for (let i = 0; i < 200; i++) board.make(i % 2 === 0 ? out : back);
    expect(board.madeMoves).toBe(200);
    for (let i = 0; i < 200; i++) board.unmake();
    expect(board.toPosition()).toEqual(MiniChessBoard.start().toPosition());
    expect(() => board.unmake()).toThrow();
  });

  test('counts slider moves up to the first piece', () => {
    // Queen c4: 4 along the rank, 5 along the file, 8 on the diagonals; king e1: 3.
    expect(load('1k3/5/2Q2/5/5/4K w 1').countMoves()).toBe(17 + 3);
    // The rook on a1 stops at its own pawn on a3 and takes the knight on c1.
    expect(load('1k3/5/5/P4/5/R1n1K w 1').countMoves()).toBe(1 + 1 + 2 + 3);
  });

  test('load refuses what the rules cannot reach; fromPosition throws on it (a caller bug)', () => {
    const bad: MiniChessPosition = { game: 'minichess', board: 'kk3/5/5/5/5/4K', toMove: 'white', ply: 1 };
    expect(MiniChessBoard.load(bad)).toMatchObject({ ok: false, error: { code: 'position/invalid' } });
    expect(() => MiniChessBoard.fromPosition(bad)).toThrow();
    expect(MiniChessBoard.load({ ...bad, board: START_PLACEMENT, ply: 1.5 })).toMatchObject({ ok: false, error: { code: 'position/invalid' } });
  });

  test('placement text round-trips through piece codes', () => {
    for (const text of [START_PLACEMENT, '2Q1k/5/5/5/5/K4', 'RRRRR/PPPPP/PPP2/PKP2/PPP2/4k', '5/1p1P1/5/q3B/5/k3K']) {
      const squares = parsePlacement(text);
      expect(squares.ok && formatPlacement(squares.value)).toBe(text);
    }
  });
});
