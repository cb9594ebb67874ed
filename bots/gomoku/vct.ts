import { POINTS } from '../../shared/gomoku/board.js';
import { BLACK, DOUBLE_FOUR, FIVE, FLEX4, FOUR_UNIT, type Stone, THREE_MASK, WHITE } from './patterns.js';
import type { GomokuSearchBoard } from './search-board.js';
import { insertBestFirst } from './best-first.js';

/*
 * Victory by continuous threats: like the VCF, but the attacker may also play threes (moves after
 * which it threatens an open four). A three leaves the defender more than one answer — a block
 * (`GomokuSearchBoard.answersToThree`) or a four of its own — and the attacker must beat every one
 * of them. A four of the
 * defender's is blocked by the attacker, which keeps the initiative only if a threat of its own is
 * still standing afterwards. The depth counts the attacker's threats, so lines stay short; the VCF
 * reads the long lines of fours alone.
 */

export interface VctOptions {
  /** Most attacker threats in a line; default 4. */
  readonly maxDepth?: number;
  readonly nodeLimit?: number;
  readonly deadline?: number;
  /** When given, marks every point the search plays: 1 for the attacker's moves, 2 for the defender's. */
  readonly played?: Uint8Array;
}

export interface VctResult {
  /** The attacker's first threat of a win found, or -1. */
  readonly move: number;
  readonly nodes: number;
  readonly stopped: boolean;
}

const MAX_PLIES = 96;
const CLOCK_EVERY = 127;
const lists = new Int32Array(MAX_PLIES * POINTS);
const scores = new Int32Array(POINTS);

// Proven results of attacker nodes by hash: a win within `memoWin` threats holds for any larger
// depth, a failure within `memoLoss` threats for any smaller one.
const MEMO_BITS = 16;
const MEMO_MASK = (1 << MEMO_BITS) - 1;
const memoCheck = new Int32Array(1 << MEMO_BITS);
const memoGeneration = new Int32Array(1 << MEMO_BITS);
const memoWin = new Int8Array(1 << MEMO_BITS);
const memoLoss = new Int8Array(1 << MEMO_BITS);
let generation = 0;

class VctSearch {
  nodes = 0;
  stopped = false;
  firstMove = -1;

  constructor(
    private readonly board: GomokuSearchBoard,
    private readonly nodeLimit: number,
    private readonly deadline: number,
    private readonly played: Uint8Array | undefined,
  ) {}

  private make(move: number, mark: number): void {
    if (this.played) this.played[move] = this.played[move]! | mark;
    this.board.make(move);
  }

  private tick(): boolean {
    if ((++this.nodes & CLOCK_EVERY) === 0 && (this.nodes >= this.nodeLimit || performance.now() >= this.deadline)) this.stopped = true;
    return this.stopped;
  }

  /** The attacker is to move: can it win with at most `depth` more threats? */
  attack(depth: number, ply: number): boolean {
    if (this.tick() || ply >= MAX_PLIES - 1) return false;
    const board = this.board;
    const patterns = board.patterns;
    const attacker = board.sideToMove;
    const defender: Stone = attacker === BLACK ? WHITE : BLACK;
    const base = ply * POINTS;
    if (patterns.count(attacker, FIVE) > 0) {
      if (ply === 0) this.firstMove = board.fiveMoves(attacker, lists, base) > 0 ? lists[base]! : -1;
      return true;
    }
    const defenderFives = board.fiveMoves(defender, lists, base);
    if (defenderFives >= 2) return false;
    if (defenderFives === 0) {
      if (patterns.count(attacker, FLEX4) > 0 || patterns.comboCount(attacker, DOUBLE_FOUR) > 0) {
        if (ply === 0) this.firstMove = this.firstOpenFourOrDoubleFour(attacker, base);
        return true;
      }
      if (depth === 0) return false;
    }

    // Forced blocks are remembered too: the defender's fours, blocked in any order, meet the same positions.
    const hi = board.hashHi();
    const slot = board.hashLo() & MEMO_MASK;
    const known = memoGeneration[slot] === generation && memoCheck[slot] === hi;
    if (known && memoWin[slot]! <= depth && ply > 0) return true;
    if (known && memoLoss[slot]! >= depth) return false;

    let won = false;
    if (defenderFives === 1) {
      // A forced block; the attack goes on only if a threat of the attacker's still stands after it.
      const block = lists[base]!;
      this.make(block, 1);
      won = this.defend(depth, ply + 1);
      board.unmake();
      if (won && ply === 0) this.firstMove = block;
    } else {
      // The last threat must win at once whatever the answer, so it must make two threats in one stone.
      const count = this.orderedThreats(attacker, base, depth === 1 ? 2 : 1);
      for (let i = 0; i < count && !won; i++) {
        const move = lists[base + i]!;
        this.make(move, 1);
        won = this.defend(depth - 1, ply + 1);
        board.unmake();
        if (won && ply === 0) this.firstMove = move;
        if (this.stopped) return false;
      }
    }
    if (this.stopped) return false;
    if (memoGeneration[slot] !== generation || memoCheck[slot] !== hi) {
      memoGeneration[slot] = generation;
      memoCheck[slot] = hi;
      memoWin[slot] = 127;
      memoLoss[slot] = -1;
    }
    if (won) memoWin[slot] = Math.min(memoWin[slot]!, depth);
    else memoLoss[slot] = Math.max(memoLoss[slot]!, depth);
    return won;
  }

  /** The defender is to move after an attacker's threat: does every answer still lose? */
  private defend(depth: number, ply: number): boolean {
    if (this.tick() || ply >= MAX_PLIES - 1) return false;
    const board = this.board;
    const patterns = board.patterns;
    const defender = board.sideToMove;
    const attacker: Stone = defender === BLACK ? WHITE : BLACK;
    if (patterns.count(defender, FIVE) > 0) return false;
    const base = ply * POINTS;
    const fives = board.fiveMoves(attacker, lists, base);
    if (fives >= 2) return true;
    let count: number;
    if (fives === 1) count = 1;
    // The superset of blocks: a few more branches are cheaper here than a trial move per block.
    else if (patterns.count(attacker, FLEX4) > 0) count = board.answersToThree(lists, base, false);
    else return false; // no threat left standing
    for (let i = 0; i < count; i++) {
      this.make(lists[base + i]!, 2);
      const won = this.attack(depth, ply + 1);
      board.unmake();
      if (!won) return false;
    }
    return true;
  }

  private firstOpenFourOrDoubleFour(attacker: Stone, base: number): number {
    const board = this.board;
    const count = board.threatMoves(attacker, FOUR_UNIT, lists, base);
    for (let i = 0; i < count; i++) {
      const point = lists[base + i]!;
      if (board.foursAt(point, attacker) >= 2 || board.patterns.bestPattern(point, attacker) === FLEX4) return point;
    }
    return -1;
  }

  /** The attacker's moves making at least `minimumThreats` fours or threes, the strongest combinations first. */
  private orderedThreats(attacker: Stone, base: number, minimumThreats: number): number {
    const board = this.board;
    const found = board.threatMoves(attacker, 1, lists, base);
    const threats = board.patterns.threats;
    let count = 0;
    for (let k = 0; k < found; k++) {
      const point = lists[base + k]!;
      if ((threats[attacker * POINTS + point]! & THREE_MASK) < minimumThreats) continue;
      const score = threats[attacker * POINTS + point]! * 4096 + board.patterns.moveValue(point, attacker);
      insertBestFirst(lists, base, scores, count++, point, score);
    }
    return count;
  }
}

/**
 * Looks for a win by continuous threats (fours and threes) for the side to move, within
 * `maxDepth` threats. The board is left as it was found.
 */
export function findVct(board: GomokuSearchBoard, options: VctOptions = {}): VctResult {
  if (board.isOver) return { move: -1, nodes: 0, stopped: false };
  generation = (generation + 1) | 0;
  const search = new VctSearch(board, options.nodeLimit ?? 50_000, options.deadline ?? Infinity, options.played);
  const maxDepth = Math.min(options.maxDepth ?? 4, (MAX_PLIES >> 1) - 8);
  // Deepening: a short win, the usual kind, is found before the deep lines eat the node budget.
  let won = false;
  for (let depth = 1; depth <= maxDepth && !won && !search.stopped; depth++) won = search.attack(depth, 0);
  return { move: won && !search.stopped ? search.firstMove : -1, nodes: search.nodes, stopped: search.stopped };
}

