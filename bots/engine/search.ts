import { WIN, WIN_THRESHOLD, type SearchGame, type SearchReport } from './game.js';
import { BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, NO_MOVE, TranspositionTable } from './table.js';

export interface SearchOptions {
  /** Deepest iteration; default 64. */
  readonly maxDepth?: number;
  /** Stop after about this many nodes (checked every 256 nodes). */
  readonly nodeLimit?: number;
  /** `performance.now()` time by which to answer. */
  readonly deadline?: number;
  readonly onProgress?: (report: SearchReport) => void;
  /** Reuse a table across searches; a fresh one (2^20 entries) otherwise, which keeps results repeatable. */
  readonly table?: TranspositionTable;
  /** Half-width of the first aspiration window, in evaluation units; 0 turns windows off. */
  readonly aspiration?: number;
  /** Turns the transposition table off (for tests against plain minimax). */
  readonly useTable?: boolean;
  /**
   * Searches late quiet moves one or two plies shallower, and again at full depth when one
   * beats alpha. Off by default: a game turns it on once matches show it pays.
   */
  readonly lateMoveReductions?: boolean;
  /**
   * When the deadline or node limit stops a depth, answer with a root move that depth has
   * already searched in full and found better than the last finished depth's choice.
   */
  readonly answerFromUnfinishedDepth?: boolean;
  /**
   * Answer from the deepest finished odd depth, whose horizon falls after the searcher's own
   * move, rather than from the deepest finished depth; a depth that proves a win or a loss counts
   * whatever its parity. Not with `answerFromUnfinishedDepth`.
   */
  readonly answerFromOddDepths?: boolean;
  /**
   * At the horizon, go straight to the quiescence search without generating all moves first:
   * for games whose `generateNoisyMoves` itself reports every game over with -1.
   */
  readonly quiescenceAtHorizon?: boolean;
  /**
   * ProbCut (Buro, 1995): at a null-window node with `minDepth` plies or more left, a shallow
   * search that lands beyond the window by `margin(depth)` stands for the deep one, which is
   * skipped. The margin is the spread between the two depths' scores, measured per game.
   */
  readonly probCut?: ProbCut;
  /**
   * The game's own compiled search below the iterative deepening (Othello's WebAssembly core),
   * searching the tree `negamax` would, node for node; the table option is then unused. Not with
   * late-move reductions, quiescence at the horizon or answers from an unfinished depth.
   */
  readonly native?: NativeTree;
}

/** One depth's search from the root, done outside this file: see `SearchOptions.native`. */
export interface NativeTree {
  /** Starts a search: ProbCut's settings, and the budget to look at every 256 nodes as `negamax` does. */
  begin(probCut: ProbCut | undefined, outOfBudget: (nodes: number) => boolean): void;
  /** The root's score in (alpha, beta) at `depth`; then `pv`, and `nodes` and `stopped` so far in this search. */
  negamax(depth: number, alpha: number, beta: number): number;
  nodes(): number;
  stopped(): boolean;
  pv(): number[];
}

export interface ProbCut {
  readonly minDepth: number;
  /** The shallow search's depth for a node with `depth` plies left; not less shallow, no probe. */
  shallowDepth(depth: number): number;
  /** How far beyond the window the shallow score must be, in evaluation units. */
  margin(depth: number): number;
}

/**
 * A ProbCut whose margin is `deviations` standard deviations of (deep score − shallow score),
 * measured per depth: `sigma[depth]`, the last entry for deeper nodes.
 */
export function measuredProbCut(minDepth: number, shallowDepth: (depth: number) => number, sigma: readonly number[], deviations: number): ProbCut {
  return { minDepth, shallowDepth, margin: (depth) => Math.round(deviations * sigma[Math.min(depth, sigma.length - 1)]!) };
}

const MAX_PLY = 128;
const CHECK_EVERY = 255; // nodes between looks at the clock
const TT_MOVE_SCORE = 1 << 30;
const KILLER_SCORES = [1 << 29, (1 << 29) - 1];
const HISTORY_SIZE = 4096;
/** Late-move reductions: from which move (0-based, after the TT move and killers), at which depth left. */
const REDUCE_FROM_MOVE = 3;
const REDUCE_FROM_DEPTH = 3;
/** Further down the list and deeper in the tree, two plies. */
const REDUCE_TWICE_FROM_MOVE = 8;
const REDUCE_TWICE_FROM_DEPTH = 6;

/**
 * Negamax alpha-beta with principal-variation search, iterative deepening, a transposition table,
 * TT-move / killer / history ordering, aspiration windows and an optional quiescence search.
 * Anytime: a legal move is chosen before the first iteration, and each finished depth improves
 * it; a search stopped by its deadline or node limit answers with the last finished depth's move.
 */
export function search(game: SearchGame, options: SearchOptions = {}): SearchReport {
  return new Searcher(game, options).run();
}

class Searcher {
  private readonly started = performance.now();
  private readonly deadline: number;
  private readonly nodeLimit: number;
  private readonly maxDepth: number;
  private readonly table: TranspositionTable | undefined;
  private readonly stride: number;
  private readonly moves: Int32Array;
  private readonly scores: Int32Array;
  private readonly killers = new Int32Array(MAX_PLY * 2).fill(NO_MOVE);
  private readonly history = new Int32Array(HISTORY_SIZE * 2);
  private readonly pv = new Int32Array(MAX_PLY * MAX_PLY);
  private readonly pvLength = new Int32Array(MAX_PLY);
  private readonly reductions: boolean;
  private readonly quiescenceAtHorizon: boolean;
  private readonly probCut: ProbCut | undefined;
  private nodes = 0;
  private stopped = false;
  /** The last finished depth's move, whether the running depth has searched it, and a root move found better since. */
  private lastChoice = NO_MOVE;
  private lastChoiceSearched = false;
  private betterRootMove = NO_MOVE;
  private betterRootScore = 0;

  constructor(
    private readonly game: SearchGame,
    private readonly options: SearchOptions,
  ) {
    this.deadline = options.deadline ?? Infinity;
    this.nodeLimit = options.nodeLimit ?? Infinity;
    this.maxDepth = Math.min(options.maxDepth ?? 64, MAX_PLY - 8);
    this.table = options.useTable === false || options.native ? undefined : (options.table ?? new TranspositionTable(20));
    this.table?.newSearch();
    if (options.answerFromOddDepths && options.answerFromUnfinishedDepth) {
      throw new Error('search: answerFromOddDepths and answerFromUnfinishedDepth do not combine.');
    }
    this.reductions = options.lateMoveReductions === true;
    this.quiescenceAtHorizon = options.quiescenceAtHorizon === true && game.generateNoisyMoves !== undefined;
    this.probCut = options.probCut;
    if (options.native) {
      if (this.reductions || this.quiescenceAtHorizon || options.answerFromUnfinishedDepth) {
        throw new Error('search: a native tree has no late-move reductions, quiescence at the horizon or answers from an unfinished depth.');
      }
      options.native.begin(options.probCut, (nodes) => nodes >= this.nodeLimit || performance.now() >= this.deadline);
    }
    this.stride = game.maxMoves;
    this.moves = new Int32Array(this.stride * (MAX_PLY + 1));
    this.scores = new Int32Array(this.stride * (MAX_PLY + 1));
  }

  run(): SearchReport {
    const game = this.game;
    const count = game.generateMoves(this.moves, 0);
    if (count <= 0) throw new Error('search() was given a position whose game is over');
    this.orderMoves(0, count, NO_MOVE, 0);
    let best = this.moves[0]!;
    let report = this.report(best, 0, 0, [best]);
    if (count === 1) return report; // nothing to choose

    const exact = game.solveExactly?.(-WIN, WIN, this.deadline);
    if (exact) {
      this.nodes += exact.nodes;
      return this.report(exact.move, exact.score, 60, [exact.move]);
    }

    let score = 0;
    const aspiration = this.options.aspiration ?? 50;
    for (let depth = 1; depth <= this.maxDepth; depth++) {
      let delta = aspiration;
      let alpha = depth >= 4 && aspiration > 0 ? Math.max(score - delta, -WIN) : -WIN;
      let beta = depth >= 4 && aspiration > 0 ? Math.min(score + delta, WIN) : WIN;
      let iterationScore: number;
      this.lastChoice = best;
      for (;;) {
        this.lastChoiceSearched = false;
        this.betterRootMove = NO_MOVE;
        iterationScore = this.iteration(depth, alpha, beta);
        if (this.stopped) break;
        if (iterationScore <= alpha && alpha > -WIN) {
          delta *= 4;
          alpha = delta > 4 * aspiration * 16 ? -WIN : Math.max(iterationScore - delta, -WIN);
        } else if (iterationScore >= beta && beta < WIN) {
          delta *= 4;
          beta = delta > 4 * aspiration * 16 ? WIN : Math.min(iterationScore + delta, WIN);
        } else {
          break;
        }
      }
      if (this.stopped) {
        if (this.options.answerFromUnfinishedDepth && this.betterRootMove !== NO_MOVE) {
          best = this.betterRootMove;
          report = this.report(best, this.betterRootScore, depth - 1, [best]);
        }
        break;
      }
      score = iterationScore;
      best = this.pv[0]!;
      const finished = this.report(best, score, depth, Array.from(this.pv.subarray(0, this.pvLength[0]!)));
      this.options.onProgress?.(finished);
      const proven = Math.abs(score) >= WIN_THRESHOLD;
      if (!this.options.answerFromOddDepths || depth % 2 === 1 || proven) report = finished;
      // A forced result within the horizon cannot change with more depth.
      if (proven && WIN - Math.abs(score) <= depth) break;
    }
    return { ...report, nodes: this.nodes, ms: performance.now() - this.started, nps: this.nps() };
  }

  /** One depth from the root, here or in the native tree. */
  private iteration(depth: number, alpha: number, beta: number): number {
    const native = this.options.native;
    if (!native) return this.negamax(depth, alpha, beta, 0);
    const score = native.negamax(depth, alpha, beta);
    this.nodes = native.nodes();
    this.stopped = native.stopped();
    const line = native.pv();
    this.pv.set(line);
    this.pvLength[0] = line.length;
    return score;
  }

  private negamax(depth: number, alpha: number, beta: number, ply: number): number {
    const game = this.game;
    this.pvLength[ply] = 0;
    if (depth <= 0 && this.quiescenceAtHorizon) return this.quiescence(alpha, beta, ply);
    if ((++this.nodes & CHECK_EVERY) === 0 && this.outOfBudget()) this.stopped = true;
    if (this.stopped) return 0;

    const offset = ply * this.stride;
    const count = game.generateMoves(this.moves, offset);
    if (count === 0) return game.result() * (WIN - ply);
    if (depth <= 0 || ply >= MAX_PLY - 1) return this.quiescence(alpha, beta, ply);

    const hashHi = game.hashHi();
    const hashLo = game.hashLo();
    let ttMove = NO_MOVE;
    const table = this.table;
    if (table && table.probe(hashHi, hashLo, ply)) {
      ttMove = table.move;
      if (ply > 0 && table.depth >= depth) {
        const s = table.score;
        const bound = table.bound;
        if (bound === BOUND_EXACT || (bound === BOUND_LOWER && s >= beta) || (bound === BOUND_UPPER && s <= alpha)) {
          return s;
        }
      }
    }

    const probCut = this.probCut;
    if (probCut && ply > 0 && beta - alpha === 1 && depth >= probCut.minDepth && Math.abs(beta) < WIN_THRESHOLD) {
      const cut = this.probe(probCut, depth, alpha, ply);
      if (this.stopped) return 0;
      if (cut !== undefined) return cut;
      // No cut: the shallow searches left this node's moves in place, only reordered.
    }

    this.orderMoves(offset, count, ttMove, ply);
    const alphaAtStart = alpha;
    const mayReduce = this.reductions && depth >= REDUCE_FROM_DEPTH && ply > 0;
    let bestScore = -WIN - 1;
    let bestMove = NO_MOVE;
    for (let i = 0; i < count; i++) {
      const move = this.pickNext(offset, i, count);
      const reduction = mayReduce && i >= REDUCE_FROM_MOVE && !game.isNoisy?.(move) ? (i >= REDUCE_TWICE_FROM_MOVE && depth >= REDUCE_TWICE_FROM_DEPTH ? 2 : 1) : 0;
      game.make(move);
      let score: number;
      if (i === 0) {
        score = -this.negamax(depth - 1, -beta, -alpha, ply + 1);
      } else {
        score = -this.negamax(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1);
        if (reduction > 0 && score > alpha && !this.stopped) score = -this.negamax(depth - 1, -alpha - 1, -alpha, ply + 1);
        if (score > alpha && score < beta && !this.stopped) score = -this.negamax(depth - 1, -beta, -alpha, ply + 1);
      }
      game.unmake();
      if (this.stopped) return 0;
      if (ply === 0 && move === this.lastChoice) this.lastChoiceSearched = true;
      if (score > bestScore) {
        bestScore = score;
        bestMove = move;
        if (score > alpha) {
          alpha = score;
          this.updatePv(ply, move);
          if (ply === 0 && this.lastChoiceSearched && move !== this.lastChoice) {
            this.betterRootMove = move;
            this.betterRootScore = score;
          }
          if (alpha >= beta) {
            this.rememberCutoff(move, ply, depth);
            break;
          }
        }
      }
    }
    const bound = bestScore >= beta ? BOUND_LOWER : bestScore > alphaAtStart ? BOUND_EXACT : BOUND_UPPER;
    table?.store(hashHi, hashLo, ply, depth, bound, bestScore, bestMove);
    return bestScore;
  }

  /** ProbCut's two shallow null-window searches around the window (alpha, alpha + 1): the bound that one of them predicts, if any. */
  private probe(probCut: ProbCut, depth: number, alpha: number, ply: number): number | undefined {
    const shallow = probCut.shallowDepth(depth);
    if (shallow >= depth) return undefined;
    const margin = probCut.margin(depth);
    const high = alpha + 1 + margin;
    if (high < WIN_THRESHOLD && this.negamax(shallow, high - 1, high, ply) >= high) return alpha + 1;
    if (this.stopped) return undefined;
    const low = alpha - margin;
    if (low > -WIN_THRESHOLD && this.negamax(shallow, low, low + 1, ply) <= low) return alpha;
    return undefined;
  }

  private quiescence(alpha: number, beta: number, ply: number): number {
    const game = this.game;
    if (!game.generateNoisyMoves) return game.evaluate();
    if ((++this.nodes & CHECK_EVERY) === 0 && this.outOfBudget()) this.stopped = true;
    if (this.stopped) return 0;
    const offset = ply * this.stride;
    const count = game.generateNoisyMoves(this.moves, offset);
    if (count < 0) return game.result() * (WIN - ply);
    const standPat = game.evaluate();
    if (standPat >= beta || ply >= MAX_PLY - 1) return standPat;
    if (standPat > alpha) alpha = standPat;
    this.orderMoves(offset, count, NO_MOVE, -1);
    for (let i = 0; i < count; i++) {
      const move = this.pickNext(offset, i, count);
      game.make(move);
      const score = -this.quiescence(-beta, -alpha, ply + 1);
      game.unmake();
      if (this.stopped) return 0;
      if (score > alpha) {
        alpha = score;
        if (alpha >= beta) break;
      }
    }
    return alpha;
  }

  /** Scores the moves for ordering: TT move, killers, then the game's own score plus history. */
  private orderMoves(offset: number, count: number, ttMove: number, ply: number): void {
    const game = this.game;
    const side = ply < 0 ? 0 : (ply & 1) * HISTORY_SIZE;
    const k0 = ply >= 0 ? this.killers[ply * 2]! : NO_MOVE;
    const k1 = ply >= 0 ? this.killers[ply * 2 + 1]! : NO_MOVE;
    for (let i = offset; i < offset + count; i++) {
      const move = this.moves[i]!;
      let s: number;
      if (move === ttMove) s = TT_MOVE_SCORE;
      else if (move === k0) s = KILLER_SCORES[0]!;
      else if (move === k1) s = KILLER_SCORES[1]!;
      else s = (game.orderScore ? game.orderScore(move) : 0) * 64 + (ply >= 0 ? this.history[side + (move & (HISTORY_SIZE - 1))]! : 0);
      this.scores[i] = s;
    }
  }

  /** Selection sort, one step at a time: cut-offs usually come before the list is sorted. */
  private pickNext(offset: number, i: number, count: number): number {
    const moves = this.moves;
    const scores = this.scores;
    let best = offset + i;
    for (let j = best + 1; j < offset + count; j++) if (scores[j]! > scores[best]!) best = j;
    const move = moves[best]!;
    const s = scores[best]!;
    moves[best] = moves[offset + i]!;
    scores[best] = scores[offset + i]!;
    moves[offset + i] = move;
    scores[offset + i] = s;
    return move;
  }

  private rememberCutoff(move: number, ply: number, depth: number): void {
    if (this.killers[ply * 2] !== move) {
      this.killers[ply * 2 + 1] = this.killers[ply * 2]!;
      this.killers[ply * 2] = move;
    }
    const h = (ply & 1) * HISTORY_SIZE + (move & (HISTORY_SIZE - 1));
    this.history[h] = Math.min(this.history[h]! + depth * depth, 1 << 20);
  }

  private updatePv(ply: number, move: number): void {
    const row = ply * MAX_PLY;
    const child = (ply + 1) * MAX_PLY;
    const childLength = ply + 1 < MAX_PLY ? this.pvLength[ply + 1]! : 0;
    this.pv[row] = move;
    for (let i = 0; i < childLength; i++) this.pv[row + 1 + i] = this.pv[child + i]!;
    this.pvLength[ply] = childLength + 1;
  }

  private outOfBudget(): boolean {
    return this.nodes >= this.nodeLimit || performance.now() >= this.deadline;
  }

  private nps(): number {
    const ms = performance.now() - this.started;
    return ms > 0 ? Math.round((this.nodes * 1000) / ms) : 0;
  }

  private report(move: number, score: number, depth: number, pv: number[]): SearchReport {
    return { move, score: score || 0, depth, nodes: this.nodes, pv, ms: performance.now() - this.started, nps: this.nps() };
  }
}
