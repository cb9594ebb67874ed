import { POINTS } from '../../shared/gomoku/board.js';
import { BLACK, FOUR_UNIT, type Stone, WHITE } from './patterns.js';
import type { GomokuSearchBoard } from './search-board.js';
import { insertBestFirst } from './best-first.js';

/*
 * Victory by continuous fours: the attacker plays only moves that make a four, so each reply of
 * the defender is forced (the one point that stops the five), and wins when a four cannot be
 * stopped (two points make five) or a five follows. A defender's block that makes a four of its
 * own must be answered by a block that is itself a four, or the line fails. The tree is narrow,
 * so it reads far deeper than the full search, and a line found is a proof, not an estimate.
 */

export interface VcfOptions {
  /** Most attacker moves in a line; default 30. */
  readonly maxDepth?: number;
  /** Stop after about this many positions; default 100 000. */
  readonly nodeLimit?: number;
  /** `performance.now()` time after which the search gives up. */
  readonly deadline?: number;
}

export interface VcfResult {
  /** Attacker, defender, attacker, … ending with the attacker's five; empty when no win was found. */
  readonly sequence: readonly number[];
  readonly nodes: number;
  /** True when a limit cut the search short, so "no win found" is not "no win". */
  readonly stopped: boolean;
}

const MAX_DEPTH = 60;
const CLOCK_EVERY = 255;
// A table of lines that failed, by hash, with the depth they failed at; reset by a generation counter.
const FAIL_BITS = 16;
const FAIL_MASK = (1 << FAIL_BITS) - 1;
const failCheck = new Int32Array(1 << FAIL_BITS);
const failDepth = new Int8Array(1 << FAIL_BITS);
const failGeneration = new Int32Array(1 << FAIL_BITS);
let generation = 0;

const moveLists = new Int32Array((MAX_DEPTH + 1) * POINTS);
const moveScores = new Int32Array(POINTS);
const replies = new Int32Array(POINTS);
const line = new Int32Array(2 * MAX_DEPTH + 2);

class VcfSearch {
  nodes = 0;
  stopped = false;
  length = 0;

  constructor(
    private readonly board: GomokuSearchBoard,
    private readonly nodeLimit: number,
    private readonly deadline: number,
  ) {}

  /** The attacker is to move at `ply`; true when it wins by fours within `depth` more moves. */
  attack(depth: number, ply: number): boolean {
    const board = this.board;
    if ((++this.nodes & CLOCK_EVERY) === 0 && (this.nodes >= this.nodeLimit || performance.now() >= this.deadline)) this.stopped = true;
    if (this.stopped) return false;
    const attacker = board.sideToMove;
    const defender: Stone = attacker === BLACK ? WHITE : BLACK;
    const base = (ply >> 1) * POINTS; // attacker plies are the even ones
    if (board.fiveMoves(attacker, moveLists, base) > 0) {
      line[ply] = moveLists[base]!;
      this.length = ply + 1;
      return true;
    }
    if (depth === 0) return false;
    const hi = board.hashHi();
    const slot = board.hashLo() & FAIL_MASK;
    if (failGeneration[slot] === generation && failCheck[slot] === hi && failDepth[slot]! >= depth) return false;

    let count: number;
    const threatsAgainst = board.fiveMoves(defender, moveLists, base);
    if (threatsAgainst >= 2) return false;
    if (threatsAgainst === 1) {
      // The block is forced; it helps only if it is a four itself.
      count = board.foursAt(moveLists[base]!, attacker) > 0 ? 1 : 0;
    } else {
      count = this.fourMoves(attacker, base);
    }

    for (let i = 0; i < count; i++) {
      const move = moveLists[base + i]!;
      board.make(move);
      // The defender must stop every five; with two to stop it cannot, so block one and let the attacker finish.
      const fives = board.fiveMoves(attacker, replies, 0);
      let won = false;
      if (fives > 0) {
        const block = replies[0]!;
        board.make(block);
        won = this.attack(depth - 1, ply + 2);
        board.unmake();
        if (won) line[ply + 1] = block;
      }
      board.unmake();
      if (won) {
        line[ply] = move;
        return true;
      }
      if (this.stopped) return false;
    }
    failGeneration[slot] = generation;
    failCheck[slot] = hi;
    failDepth[slot] = depth;
    return false;
  }

  /** Writes the attacker's four-making points at `base`, the most promising first; returns how many. */
  private fourMoves(attacker: Stone, base: number): number {
    const board = this.board;
    const count = board.threatMoves(attacker, FOUR_UNIT, moveLists, base);
    for (let i = 0; i < count; i++) {
      const point = moveLists[base + i]!;
      // Fours that also make threes (or a second four) first, then by pattern gain.
      const score = board.threatsAt(point, attacker) * 10_000 + board.patterns.moveValue(point, attacker);
      insertBestFirst(moveLists, base, moveScores, i, point, score);
    }
    return count;
  }
}

/**
 * Looks for a win by continuous fours for the side to move. The board is left as it was found.
 * A five already on offer counts (a sequence of one move).
 */
export function findVcf(board: GomokuSearchBoard, options: VcfOptions = {}): VcfResult {
  if (board.isOver) return { sequence: [], nodes: 0, stopped: false };
  generation = (generation + 1) | 0;
  const maxDepth = Math.min(options.maxDepth ?? 30, MAX_DEPTH);
  const search = new VcfSearch(board, options.nodeLimit ?? 100_000, options.deadline ?? Infinity);
  const won = search.attack(maxDepth, 0);
  return {
    sequence: won ? Array.from(line.subarray(0, search.length)) : [],
    nodes: search.nodes,
    stopped: search.stopped,
  };
}

/**
 * The side to move's sensible moves that `opponentWins` (asked with the opponent to move) does
 * not refute, checked in order until `deadline`: `urgent` moves first (cheap to check and often
 * the answer, such as our own threats), then the rest by pattern gain. Besides the urgent ones,
 * only the moves `consider` accepts are checked (all when it is omitted). `sensible` lists every
 * move in that order. `proven` are those whose check finished without a win; `unrefuted` those
 * whose check was cut short without one (a proof that ran out of nodes is no proof, and the real
 * defence may be among them).
 */
export function movesThatStop(
  board: GomokuSearchBoard,
  opponentWins: (board: GomokuSearchBoard) => { readonly won: boolean; readonly stopped: boolean; readonly nodes: number },
  deadline: number,
  consider?: (move: number) => boolean,
  urgent?: (move: number) => boolean,
): { proven: number[]; unrefuted: number[]; sensible: number[]; nodes: number } {
  let nodes = 0;
  const buffer = new Int32Array(POINTS);
  const moves = Array.from(buffer.subarray(0, board.allSensibleMoves(buffer, 0)));
  const isUrgent = new Set(urgent ? moves.filter(urgent) : []);
  const scores = new Map(moves.map((m) => [m, board.orderScore(m) + (isUrgent.has(m) ? 1 << 24 : 0)]));
  moves.sort((a, b) => scores.get(b)! - scores.get(a)!);
  const proven: number[] = [];
  const unrefuted: number[] = [];
  for (const move of moves) {
    if (performance.now() >= deadline) break;
    if (consider && !isUrgent.has(move) && !consider(move)) continue;
    board.make(move);
    const reply = board.isOver ? undefined : opponentWins(board);
    board.unmake();
    nodes += 1 + (reply?.nodes ?? 0);
    if (reply === undefined || (!reply.won && !reply.stopped)) proven.push(move);
    else if (!reply.won) unrefuted.push(move);
  }
  return { proven, unrefuted, sensible: moves, nodes };
}
