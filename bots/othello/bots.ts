import type { Position } from '../../shared/games.js';
import { popcount } from '../../shared/othello/bitboard.js';
import { OthelloBoard, PASS } from '../../shared/othello/board.js';
import { othelloBoardOf, type OthelloPosition } from '../../shared/othello/rules.js';
import type { Bot, GameBots, ThinkLimits } from '../bot.js';

import type { SearchReport } from '../engine/game.js';
import { measuredProbCut, search } from '../engine/search.js';
import { countFlips } from '../../shared/othello/flip.js';
import { OthelloSearchBoard } from './search-board.js';
import { WasmMidgame } from './wasm-search.js';
import { bestRootChild, minimaxNode, OutOfTime } from '../seed-minimax.js';

function othelloPosition(position: Position, bot: string): OthelloPosition {
  if (position.game !== 'othello') throw new Error(`${bot} plays Othello, not ${position.game}.`);
  return position;
}

/**
 * ProbCut's shallow depth for a node `depth` plies from the horizon (Edax's choice: a quarter of
 * the depth, of the same parity, since Othello's evaluations swing between odd and even depths),
 * and the margin: PROBCUT_T standard deviations of the deep search's score about the shallow
 * one's, measured per depth on self-play positions (docs/engine/othello.md).
 */
const PROBCUT_SIGMA = [0, 0, 0, 380, 324, 306, 406, 394, 349, 338, 427];
/** +67.8 Elo ± 38.2 against 1.5, 306 games (SPRT H1); 0.7 against 1.0: −10.9 ± 38.0 at 320 games, undecided. */
const PROBCUT_T = 1.0;
/** ProbCut (margin 1.5 then): +178.2 Elo ± 73.9, 108 games (SPRT H1). */
export const OTHELLO_PROBCUT = measuredProbCut(3, (depth) => 2 * (depth >> 2) + (depth & 1), PROBCUT_SIGMA, PROBCUT_T);

/**
 * No answer from an unfinished depth, unlike MiniChess: with it (and the solver from the empties
 * the whole time allows), +5.1 Elo ± 24.6 after 540 games, undecided, so not kept.
 */
export const ENGINE_SEARCH_OPTIONS = { probCut: OTHELLO_PROBCUT } as const;

/** The strong engine: the generic search on `OthelloSearchBoard`, which hands small endgames to the exact solver. */
export function createOthelloEngineBot(name: string, budgetMs: number): Bot {
  const midgame = new WasmMidgame();
  return {
    name,
    game: 'othello',
    description: `Alpha-beta engine (PVS, ProbCut, transposition table, learned pattern evaluation, exact endgame solver), ${budgetMs} ms a move.`,
    budgetMs,
    think(position: Position, limits: ThinkLimits): SearchReport {
      const game = OthelloSearchBoard.from(othelloBoardOf(othelloPosition(position, name)));
      const deadline = Math.min(limits.deadline, performance.now() + budgetMs);
      return search(game, { ...ENGINE_SEARCH_OPTIONS, deadline, native: midgame.over(game), maxDepth: limits.maxDepth, nodeLimit: limits.nodeLimit, onProgress: limits.onProgress });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The seed bots: each report's own alpha-beta and evaluation over `OthelloBoard`, not our engine.
// Both reports build on the course's board class, whose `put_disc` plays a pass by itself: when
// the next player has no move the turn comes straight back, without a ply of its own. `playFolded`
// does the same here.

const CORNER_SQUARES = [0, 7, 56, 63] as const; // a1, h1, a8, h8: the seeds' (0,0), (0,7), (7,0), (7,7)
const CORNERS_LO = 0x00000081;
const CORNERS_HI = 0x81000000 | 0;
const MAX_SEED_PLY = 16;

/** Plays `move` and, when the next player must pass, the pass too. Returns how many plies to take back. */
function playFolded(board: OthelloBoard, move: number, buffer: Int32Array, offset: number): number {
  board.make(move);
  if (board.generateMoves(buffer, offset) === 1 && buffer[offset] === PASS) {
    board.make(PASS);
    return 2;
  }
  return 1;
}

function takeBack(board: OthelloBoard, plies: number): void {
  for (let i = 0; i < plies; i++) board.unmake();
}

/** How many discs `me` (the root player, black or white) has. */
function discsOfMe(board: OthelloBoard, meBlack: boolean): number {
  return board.blackToMove === meBlack ? popcount(board.pHi) + popcount(board.pLo) : popcount(board.oHi) + popcount(board.oLo);
}

function discsOnBoard(board: OthelloBoard): number {
  return popcount(board.pHi | board.oHi) + popcount(board.pLo | board.oLo);
}

/** A seed's turn begun: its clock started, its board and its legal moves (more than a pass). */
interface SeedTurn {
  readonly started: number;
  readonly board: OthelloBoard;
  readonly deadline: number;
  readonly moves: Int32Array;
  readonly count: number;
}

/** A seed bot: `answer` chooses its move on each turn, but a pass, its only move then, is answered at once. */
function othelloSeedBot(name: string, description: string, budgetMs: number, answer: (turn: SeedTurn) => SearchReport): Bot {
  return {
    name,
    game: 'othello',
    description,
    budgetMs,
    think(position: Position, limits: ThinkLimits): SearchReport {
      const started = performance.now();
      const board = othelloBoardOf(othelloPosition(position, name));
      const deadline = Math.min(limits.deadline, started + budgetMs);
      const moves = new Int32Array(33);
      const count = board.generateMoves(moves, 0);
      if (count === 0) throw new Error(`${name} was asked to move in a finished game`);
      if (moves[0] === PASS) return forcedPass(started);
      return answer({ started, board, deadline, moves, count });
    },
  };
}

function forcedPass(started: number): SearchReport {
  return { move: PASS, score: 0, depth: 0, nodes: 0, pv: [PASS], ms: performance.now() - started, nps: 0 };
}

/**
 * Iterative deepening over a seed's fixed-depth search, so that a short clock still gets the move
 * of the last depth that finished (seed 003 writes its best move as it goes for the same reason).
 */
function deepen(
  depth: number,
  deadline: number,
  started: number,
  fallback: number,
  searchAt: (depth: number) => { move: number; score: number; nodes: number },
): SearchReport {
  let report: SearchReport = { move: fallback, score: 0, depth: 0, nodes: 0, pv: [fallback], ms: 0, nps: 0 };
  let nodes = 0;
  for (let d = 1; d <= depth; d++) {
    try {
      const r = searchAt(d);
      nodes += r.nodes;
      const ms = performance.now() - started;
      report = { move: r.move, score: r.score, depth: d, nodes, pv: [r.move], ms, nps: ms > 0 ? Math.round((nodes * 1000) / ms) : 0 };
    } catch (e) {
      if (!(e instanceof OutOfTime)) throw e;
      break;
    }
    if (performance.now() >= deadline) break;
  }
  const ms = performance.now() - started;
  return { ...report, ms, nps: ms > 0 ? Math.round((report.nodes * 1000) / ms) : 0 };
}

/** What the two seeds' searches share: the board, the move lists by ply, the node count and the clock. */
abstract class OthelloSeedSearch {
  nodes = 0;
  protected readonly buffer = new Int32Array(33 * (MAX_SEED_PLY + 2));

  constructor(
    protected readonly board: OthelloBoard,
    protected readonly meBlack: boolean,
    private readonly deadline: number,
  ) {}

  /** A node entered at `ply`: counted, the clock checked, the side to move's moves listed; how many. */
  protected enter(ply: number): number {
    if ((++this.nodes & 1023) === 0 && performance.now() >= this.deadline) throw new OutOfTime();
    return this.board.generateMoves(this.buffer, ply * 33);
  }

  /** The root: `bestRootChild` over the moves, each played (with the pass it forces) for `childValue` and taken back. */
  protected bestRoot(floor: number, childValue: (best: number) => number): { move: number; score: number; nodes: number } {
    const count = this.board.generateMoves(this.buffer, 0);
    const best = bestRootChild(count, floor, (i, bestSoFar) => this.valueAfter(this.buffer[i]!, () => childValue(bestSoFar)));
    return { move: this.buffer[best.index]!, score: best.score, nodes: this.nodes };
  }

  /** A node of `count` moves listed at `ply`: `minimaxNode` over them, each played for `childValue` and taken back. */
  protected node(ply: number, count: number, maximizing: boolean, alpha: number, beta: number, start: number, childValue: (alpha: number, beta: number) => number): number {
    const offset = ply * 33;
    return minimaxNode(count, maximizing, alpha, beta, start, (i, a, b) => this.valueAfter(this.buffer[offset + i]!, () => childValue(a, b)));
  }

  private valueAfter(move: number, value: () => number): number {
    const plies = playFolded(this.board, move, this.buffer, 33 * 17);
    const score = value();
    takeBack(this.board, plies);
    return score;
  }
}

// Seed 000 ----------------------------------------------------------------------------------------

/** The report's square values: corners 66, X-squares −30, C-squares −6 (its `node_value`). */
const SEED_000_SQUARES = Int32Array.from([
  66, -6, 7, 4, 4, 7, -6, 66,
  -6, -30, 3, 1, 1, 3, -30, -6,
  7, 3, 6, 2, 2, 6, 3, 7,
  4, 1, 2, 1, 1, 2, 1, 4,
  4, 1, 2, 1, 1, 2, 1, 4,
  7, 3, 6, 2, 2, 6, 3, 7,
  -6, -30, 3, 1, 1, 3, -30, -6,
  66, -6, 7, 4, 4, 7, -6, 66,
]);
const SEED_000_DEPTH = 4;
const SEED_000_BUDGET_MS = 1000;
const SEED_000_WIN = 800;

/**
 * Seed 000's `calc_value`, always from the root player's (`me`) view: the disc difference, ±800
 * for a finished game, the square values, and for the side to move its mobility (2 a move) and
 * the discs its moves would flip (2 a disc) — a penalty when that side is the opponent, a bonus
 * when it is `me`, as the report says ("the same reversed"). It also counts +100 when the
 * opponent is stuck and −60 when the opponent's single move is the last one of the game.
 */
export function seed000Evaluate(board: OthelloBoard, meBlack: boolean, buffer: Int32Array, offset: number): number {
  const mine = discsOfMe(board, meBlack);
  const theirs = discsOnBoard(board) - mine;
  let score = mine - theirs;
  const count = board.generateMoves(buffer, offset);
  if (count === 0) {
    if (mine > theirs) score += SEED_000_WIN;
    else if (theirs > mine) score -= SEED_000_WIN;
  }
  for (let square = 0; square < 64; square++) {
    const color = board.discAt(square);
    if (color === undefined) continue;
    score += (color === 'black') === meBlack ? SEED_000_SQUARES[square]! : -SEED_000_SQUARES[square]!;
  }
  const sign = board.blackToMove === meBlack ? 1 : -1;
  if (count === 0) {
    score += sign * -100; // the side to move has no move: good for the other side
    return score;
  }
  let flips = 0;
  for (let i = 0; i < count; i++) flips += flipCount(board, buffer[offset + i]!);
  score += sign * (2 * count + 2 * flips);
  const empties = 64 - mine - theirs;
  if (count === 1 && empties === 1) score += sign * 60;
  return score;
}

function flipCount(board: OthelloBoard, move: number): number {
  return move === PASS ? 0 : countFlips(board.pHi, board.pLo, board.oHi, board.oLo, move);
}

class Seed000Search extends OthelloSeedSearch {
  root(depth: number): { move: number; score: number; nodes: number } {
    return this.bestRoot(-Infinity, (alpha) => this.alphaBeta(depth - 1, false, alpha, Infinity, 1));
  }

  /** The report's `ab_pruning`: `isMax` alternates by ply, whoever is to move. */
  private alphaBeta(depth: number, isMax: boolean, alpha: number, beta: number, ply: number): number {
    const count = this.enter(ply);
    if (depth === 0 || count === 0) return seed000Evaluate(this.board, this.meBlack, this.buffer, ply * 33);
    return this.node(ply, count, isMax, alpha, beta, isMax ? -Infinity : Infinity, (a, b) => this.alphaBeta(depth - 1, !isMax, a, b, ply + 1));
  }
}

export const seed000 = othelloSeedBot(
  'seed-000',
  "seed 000: depth-4 alpha-beta on the report's evaluation (discs, ±800, mobility, flip exposure, square values)",
  SEED_000_BUDGET_MS,
  ({ started, board, deadline, moves }) => {
    const searcher = new Seed000Search(board, board.blackToMove, deadline);
    return deepen(SEED_000_DEPTH, deadline, started, moves[0]!, (d) => searcher.root(d));
  },
);

// Seed 003 ----------------------------------------------------------------------------------------

const SEED_003_DEPTH = 7; // below the root move: `ABP(_try, 7, ...)`
const SEED_003_CORNER = 9999;
const SEED_003_BUDGET_MS = 1000;

/** Seed 003's leaf value: the root player's discs, 1 each, or 9999 on a corner (its `score_board`). */
function seed003Value(board: OthelloBoard, meBlack: boolean): number {
  const mine = board.blackToMove === meBlack;
  const hi = mine ? board.pHi : board.oHi;
  const lo = mine ? board.pLo : board.oLo;
  const corners = popcount(hi & CORNERS_HI) + popcount(lo & CORNERS_LO);
  return popcount(hi) + popcount(lo) + (SEED_003_CORNER - 1) * corners;
}

class Seed003Search extends OthelloSeedSearch {
  /**
   * The report's `write_valid_spot`: every root move searched on its own with the full window,
   * the first strictly best kept (`best` starts at −1; every value is at least 0).
   */
  root(depth: number): { move: number; score: number; nodes: number } {
    return this.bestRoot(-1, () => this.alphaBeta(depth, -99999999, 99999999, 1));
  }

  /**
   * The report's `ABP`. Its text says the player maximises and the opponent minimises; its
   * listing passes `true` below the root, so every level would be turned around. We follow the
   * text: the root player's levels maximise.
   */
  private alphaBeta(depth: number, alpha: number, beta: number, ply: number): number {
    const count = this.enter(ply);
    if (depth === 0 || count === 0) return seed003Value(this.board, this.meBlack);
    const maximizing = this.board.blackToMove === this.meBlack;
    return this.node(ply, count, maximizing, alpha, beta, maximizing ? -999999 : 999999, (a, b) => this.alphaBeta(depth - 1, a, b, ply + 1));
  }
}

export const seed003 = othelloSeedBot(
  'seed-003',
  'seed 003: takes a corner at once, otherwise depth-7 alpha-beta on a corner-heavy board',
  SEED_003_BUDGET_MS,
  ({ started, board, deadline, moves, count }) => {
    const legal = moves.subarray(0, count);
    for (const corner of CORNER_SQUARES) {
      if (legal.includes(corner)) return { move: corner, score: 0, depth: 0, nodes: 0, pv: [corner], ms: performance.now() - started, nps: 0 };
    }
    const searcher = new Seed003Search(board, board.blackToMove, deadline);
    return deepen(SEED_003_DEPTH, deadline, started, moves[0]!, (d) => searcher.root(d));
  },
);

export const OTHELLO_BOTS: GameBots = { engine: createOthelloEngineBot, seeds: [seed000, seed003] };
