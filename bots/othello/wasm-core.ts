import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { writeSquares } from '../../shared/othello/bitboard.js';
import { PASS, type OthelloBoard } from '../../shared/othello/board.js';
import { othelloBoardOf, type OthelloPosition } from '../../shared/othello/rules.js';

/** Written by `npm run build` (`bots/othello/wasm/`); the tests, run from the sources, read the built one. */
export const CORE_WASM_FILE = fileURLToPath(new URL(import.meta.url.includes('/dist/bots/') ? './core.wasm' : '../../dist/bots/othello/core.wasm', import.meta.url));

/** The module's exports: boards are u64, the side to move's first (`bots/othello/wasm/assembly/`). */
interface CoreExports {
  placements(player: bigint, opponent: bigint): bigint;
  flips(player: bigint, opponent: bigint, square: number): bigint;
  perft(player: bigint, opponent: bigint, depth: number): bigint;
  solveExact(player: bigint, opponent: bigint, alpha: number, beta: number): number;
  solvedNodes(): bigint;
}

/** The part of the WebAssembly API used here: this project's `lib` (ES2022, no DOM) does not declare it. */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
};

let core: CoreExports | undefined;

/** The module, compiled and instantiated on first use, synchronously: it imports nothing. */
function loaded(): CoreExports {
  if (core) return core;
  if (!existsSync(CORE_WASM_FILE)) throw new Error(`The Othello WebAssembly core ${CORE_WASM_FILE} is missing: \`npm run build\` makes it.`);
  const module = new WebAssembly.Module(readFileSync(CORE_WASM_FILE));
  core = new WebAssembly.Instance(module, {}).exports as unknown as CoreExports;
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

/**
 * The exact final margin for the side to move, empties to the winner, fail-soft in (alpha, beta)
 * as `solve` in `endgame.ts` scores: the WebAssembly solver of the last empties (no table, no
 * sorting: for about a dozen empties at most). A finished game scores its final margin.
 */
export function wasmBoardSolve(board: OthelloBoard, alpha = -64, beta = 64): { score: number; nodes: number } {
  const { solveExact, solvedNodes } = loaded();
  const score = solveExact(u64(board.pHi, board.pLo), u64(board.oHi, board.oLo), alpha, beta);
  return { score, nodes: Number(solvedNodes()) };
}
