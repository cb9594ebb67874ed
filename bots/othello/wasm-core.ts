import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { popcount, writeSquares } from '../../shared/othello/bitboard.js';
import { PASS, type OthelloBoard } from '../../shared/othello/board.js';
import { othelloBoardOf, type OthelloPosition } from '../../shared/othello/rules.js';
import type { ChildSolver } from './child-solver.js';

/** Written by `npm run build` (`bots/othello/wasm/`); the tests, run from the sources, read the built one. */
export const CORE_WASM_FILE = fileURLToPath(new URL(import.meta.url.includes('/dist/bots/') ? './core.wasm' : '../../dist/bots/othello/core.wasm', import.meta.url));

/** The module's exports: boards are u64, the side to move's first (`bots/othello/wasm/assembly/`). */
interface CoreExports {
  placements(player: bigint, opponent: bigint): bigint;
  flips(player: bigint, opponent: bigint, square: number): bigint;
  perft(player: bigint, opponent: bigint, depth: number): bigint;
  /** The endgame solver, boards as 32-bit halves (hi, lo), so the per-call cost has no BigInt. */
  beginSolve(deadline: number): void;
  solveChild(pHi: number, pLo: number, oHi: number, oLo: number, alpha: number, beta: number, empties: number, ply: number): number;
  solveStopped(): number;
  solvedNodes(): bigint;
  /** The midgame search (`wasm-search.ts`); addresses are byte offsets into `memory`. */
  midTablePointers(): number;
  midWeights(perStage: number): number;
  midProbCut(minDepth: number): void;
  midNewTable(bits: number): number;
  midClearTable(base: number, bits: number): void;
  midBegin(pHi: number, pLo: number, oHi: number, oLo: number, black: boolean, table: number, bits: number, age: number): void;
  midNegamax(depth: number, alpha: number, beta: number): number;
  midNodes(): number;
  midStopped(): number;
  midPvLength(): number;
  readonly memory: { readonly buffer: ArrayBuffer };
}

/** The part of the WebAssembly API used here: this project's `lib` (ES2022, no DOM) does not declare it. */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
};

let core: CoreExports | undefined;
let budget: (nodes: number) => boolean = () => false;

/** What the midgame search asks every 256 nodes: whether to stop. */
export function setMidgameBudget(outOfBudget: (nodes: number) => boolean): void {
  budget = outOfBudget;
}

/**
 * The module, compiled and instantiated on first use, synchronously: it imports only the clock,
 * for the solver's deadline, and the midgame search's budget.
 */
export function loaded(): CoreExports {
  if (core) return core;
  if (!existsSync(CORE_WASM_FILE)) throw new Error(`The Othello WebAssembly core ${CORE_WASM_FILE} is missing: \`npm run build\` makes it.`);
  const module = new WebAssembly.Module(readFileSync(CORE_WASM_FILE));
  core = new WebAssembly.Instance(module, { env: { now: () => performance.now(), outOfBudget: (nodes: number) => budget(nodes) } }).exports as unknown as CoreExports;
  return core;
}

function u64(hi: number, lo: number): bigint {
  return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
}

/** The squares of a u64 set, low squares first. */
function squaresOf(set: bigint): number[] {
  const out = new Int32Array(64);
  const n = writeSquares(Number((set >> 32n) & 0xffffffffn) | 0, Number(set & 0xffffffffn) | 0, out, 0);
  return Array.from(out.subarray(0, n));
}

/** perft in WebAssembly from an Othello board, counted as `othelloPerft` counts. */
export function wasmBoardPerft(board: OthelloBoard, depth: number): number {
  return Number(loaded().perft(u64(board.pHi, board.pLo), u64(board.oHi, board.oLo), depth));
}

export function wasmPerft(position: OthelloPosition, depth: number): number {
  return wasmBoardPerft(othelloBoardOf(position), depth);
}

/** The legal moves as `othelloRules.legalMoves` lists them: squares low first, `[PASS]` when forced, none when the game is over. */
export function wasmLegalMoves(position: OthelloPosition): number[] {
  const board = othelloBoardOf(position);
  const player = u64(board.pHi, board.pLo);
  const opponent = u64(board.oHi, board.oLo);
  const { placements } = loaded();
  const squares = squaresOf(placements(player, opponent));
  if (squares.length > 0) return squares;
  return placements(opponent, player) === 0n ? [] : [PASS];
}

/** The discs the side to move's disc on the empty `square` flips, low squares first (none: not a legal move). */
export function wasmFlips(position: OthelloPosition, square: number): number[] {
  return wasmBoardFlips(othelloBoardOf(position), square);
}

export function wasmBoardFlips(board: OthelloBoard, square: number): number[] {
  return squaresOf(loaded().flips(u64(board.pHi, board.pLo), u64(board.oHi, board.oLo), square));
}

let childSolver: ChildSolver | undefined;

/** The search below the root of `solve` (`endgame.ts`) in WebAssembly. */
export function wasmChildSolver(): ChildSolver {
  if (childSolver) return childSolver;
  const { beginSolve, solveChild, solveStopped, solvedNodes } = loaded();
  childSolver = {
    begin: beginSolve,
    child: solveChild,
    stopped: () => solveStopped() !== 0,
    nodes: () => Number(solvedNodes()),
  };
  return childSolver;
}

/**
 * The exact final margin for the side to move, empties to the winner, fail-soft in (alpha, beta),
 * searched whole in WebAssembly: `solve` without the root's ordering and its move. A finished game
 * scores its final margin.
 */
export function wasmBoardSolve(board: OthelloBoard, alpha = -64, beta = 64): { score: number; nodes: number } {
  const solver = wasmChildSolver();
  solver.begin(Infinity);
  const empties = 64 - popcount(board.pHi | board.oHi) - popcount(board.pLo | board.oLo);
  const score = solver.child(board.pHi, board.pLo, board.oHi, board.oLo, alpha, beta, empties, 0);
  return { score, nodes: solver.nodes() };
}
