import type { Position } from '../../shared/games.js';
import { FILE_COUNT, KING, MiniChessBoard, RANK_COUNT, SQUARE_COUNT, type MiniChessPosition } from '../../shared/minichess/index.js';
import type { Bot, GameBots, ThinkLimits } from '../bot.js';
import { WIN, type SearchReport } from '../engine/game.js';
import { measuredProbCut, search } from '../engine/search.js';
import { TranspositionTable } from '../engine/table.js';
import { MiniChessSearchBoard } from './search-board.js';
import { bestRootChild, minimaxNode, OutOfTime } from '../seed-minimax.js';

function minichessPosition(position: Position, bot: string): MiniChessPosition {
  if (position.game !== 'minichess') throw new Error(`${bot} plays MiniChess, not ${position.game}.`);
  return position;
}

/**
 * ProbCut for MiniChess: from 5 plies left, a search 4 plies shallower, and a margin of
 * 1.5 standard deviations of (deep − shallow), measured per depth on 422 positions from the
 * opening book played on by `engine-1` (docs/engine/minichess.md).
 */
const PROBCUT_SIGMA = [0, 0, 0, 0, 0, 142, 153, 159, 132, 134];
/** +56.0 Elo ± 37.3 against no ProbCut, 244 games (SPRT H1). */
export const MINICHESS_PROBCUT = measuredProbCut(5, (depth) => depth - 4, PROBCUT_SIGMA, 1.5);

/** What the engine turns on in the generic search for MiniChess. */
export const ENGINE_SEARCH_OPTIONS = { lateMoveReductions: true, answerFromUnfinishedDepth: true, quiescenceAtHorizon: true, probCut: MINICHESS_PROBCUT } as const;

/** The strong engine: the generic search on `MiniChessSearchBoard`, with a table kept between moves. */
export function createMiniChessEngineBot(name: string, budgetMs: number): Bot {
  let table: TranspositionTable | undefined;
  return {
    name,
    game: 'minichess',
    description: `Alpha-beta engine (PVS, late-move reductions, ProbCut, transposition table, quiescence on captures, the 50-ply count in its evaluation), ${budgetMs} ms a move.`,
    budgetMs,
    think(position: Position, limits: ThinkLimits): SearchReport {
      const deadline = Math.min(limits.deadline, performance.now() + budgetMs);
      const game = MiniChessSearchBoard.fromPosition(minichessPosition(position, name));
      table ??= new TranspositionTable(20);
      return search(game, { ...ENGINE_SEARCH_OPTIONS, deadline, table, maxDepth: limits.maxDepth, nodeLimit: limits.nodeLimit, onProgress: limits.onProgress });
    },
  };
}

// Seed 004 (a MiniChess course report): material {pawn 4, rook 20, knight 12, bishop 12,
// queen 36, king 100000} plus a bonus per piece and square, read from white's side with row 0
// the far rank and turned half round for black (`bouns[piece][5-i][4-j]`); plain alpha-beta at a
// fixed depth, a king capture scoring ±2^31. The report shows neither its bonus tables nor its
// final depth beyond a note "depth 5 to 6", so the tables below are ours, in its scale.
const SEED_POINTS = Int32Array.from([0, 4, 20, 12, 12, 36, 100000]);
const SEED_BONUS_ROWS: readonly (readonly number[])[] = [
  [],
  // pawn: the closer to promotion the better
  [0, 0, 0, 0, 0, 4, 4, 4, 4, 4, 2, 3, 3, 3, 2, 1, 1, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  // rook: the far ranks
  [2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  // knight: the centre
  [-2, -1, 0, -1, -2, -1, 1, 2, 1, -1, 0, 2, 3, 2, 0, 0, 2, 3, 2, 0, -1, 1, 2, 1, -1, -2, -1, 0, -1, -2],
  // bishop: the long diagonals
  [-1, 0, 0, 0, -1, 0, 1, 1, 1, 0, 0, 2, 2, 2, 0, 0, 2, 2, 2, 0, 0, 1, 1, 1, 0, -1, 0, 0, 0, -1],
  // queen: a little toward the centre
  [0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 1, 2, 1, 0, 0, 1, 2, 1, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0],
  // king: at home
  [-3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -2, -2, -2, -2, -2, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 1, 1, 0, 1, 1],
];
/** By (kind, square): the seed's points plus its bonus, for white; black reads square 29 - s. */
const SEED_VALUE = new Int32Array((KING + 1) * SQUARE_COUNT);
for (let kind = 1; kind <= KING; kind++) {
  for (let square = 0; square < SQUARE_COUNT; square++) {
    const row = RANK_COUNT - 1 - Math.floor(square / FILE_COUNT);
    SEED_VALUE[kind * SQUARE_COUNT + square] = SEED_POINTS[kind]! + SEED_BONUS_ROWS[kind]![row * FILE_COUNT + (square % FILE_COUNT)]!;
  }
}
/** The seed adds 12 a square for white and 4 for black, empty squares included: a constant 240. */
const SEED_SQUARE_CONSTANT = SQUARE_COUNT * (12 - 4);
const SEED_WIN = 2 ** 31 - 1;
const SEED_LOSS = -(2 ** 31);
/** The seed's window and the starting value of its max and min nodes. */
const SEED_BOUND = 100000;
const SEED_DEPTH = 6;
const SEED_BUDGET_MS = 1000;

/** The seed's `evaluate()`: from the side to move's view. */
export function seedEvaluate(board: MiniChessBoard): number {
  let white = SEED_SQUARE_CONSTANT;
  for (let square = 0; square < SQUARE_COUNT; square++) {
    const code = board.pieceAt(square);
    if (code > 0) white += SEED_VALUE[code * SQUARE_COUNT + square]!;
    else if (code < 0) white -= SEED_VALUE[-code * SQUARE_COUNT + SQUARE_COUNT - 1 - square]!;
  }
  return board.sideToMove === 'white' ? white : -white;
}

class SeedSearch {
  nodes = 0;
  private readonly moves: Int32Array;
  private readonly stride: number;

  constructor(
    private readonly board: MiniChessBoard,
    private readonly deadline: number,
  ) {
    this.stride = board.maxMoves;
    this.moves = new Int32Array(this.stride * (SEED_DEPTH + 1));
  }

  /** The seed's `get_move`: every root move searched with the full window; undefined when time ran out. */
  bestMove(depth: number): { move: number; score: number } | undefined {
    const board = this.board;
    const count = board.generateMoves(this.moves, 0);
    try {
      const best = bestRootChild(count, -SEED_BOUND, (i) => {
        board.make(this.moves[i]!);
        const score = this.alphaBeta(depth - 1, false, -SEED_BOUND, SEED_BOUND, 1);
        board.unmake();
        return score;
      });
      return { move: this.moves[best.index]!, score: best.score };
    } catch (e) {
      if (e instanceof OutOfTime) return undefined;
      throw e;
    }
  }

  /** The seed's `get_alphabeta`, values from the root player's view (`me`: the root player moves). */
  private alphaBeta(depth: number, me: boolean, alpha: number, beta: number, ply: number): number {
    const board = this.board;
    if ((++this.nodes & 1023) === 0 && performance.now() >= this.deadline) throw new OutOfTime();
    if (depth === 0) return me ? seedEvaluate(board) : -seedEvaluate(board);
    const offset = ply * this.stride;
    const count = board.generateMoves(this.moves, offset);
    if (count === 0) {
      if (!board.isStepLimitReached() && board.canCaptureKing()) return me ? SEED_WIN : SEED_LOSS;
      return me ? seedEvaluate(board) : -seedEvaluate(board);
    }
    return minimaxNode(count, me, alpha, beta, me ? -SEED_BOUND : SEED_BOUND, (i, a, b) => {
      board.make(this.moves[offset + i]!);
      const child = this.alphaBeta(depth - 1, !me, a, b, ply + 1);
      board.unmake();
      return child;
    });
  }
}

/** Seed 004's bot: depths 1 to 6 in turn, answering with the deepest one finished within a second. */
export const seed004: Bot = {
  name: 'seed-004',
  game: 'minichess',
  description: 'Seed 004: material and square bonuses, plain alpha-beta to depth 6 (the last finished depth within 1 s).',
  budgetMs: SEED_BUDGET_MS,
  think(position: Position, limits: ThinkLimits): SearchReport {
    const started = performance.now();
    const board = MiniChessBoard.fromPosition(minichessPosition(position, 'seed-004'));
    const seed = new SeedSearch(board, Math.min(limits.deadline, started + SEED_BUDGET_MS));
    const first = new Int32Array(board.maxMoves);
    if (board.generateMoves(first, 0) === 0) throw new Error('seed-004 was given a position whose game is over.');
    let report: SearchReport = { move: first[0]!, score: 0, depth: 0, nodes: 0, pv: [first[0]!], ms: 0, nps: 0 };
    for (let depth = 1; depth <= SEED_DEPTH; depth++) {
      const found = seed.bestMove(depth);
      if (!found) break;
      const ms = performance.now() - started;
      const score = Math.max(-WIN, Math.min(WIN, found.score));
      report = { move: found.move, score, depth, nodes: seed.nodes, pv: [found.move], ms, nps: ms > 0 ? Math.round((seed.nodes * 1000) / ms) : 0 };
      limits.onProgress?.(report);
    }
    const ms = performance.now() - started;
    return { ...report, nodes: seed.nodes, ms, nps: ms > 0 ? Math.round((seed.nodes * 1000) / ms) : 0 };
  },
};

export const MINICHESS_BOTS: GameBots = { engine: createMiniChessEngineBot, seeds: [seed004] };
