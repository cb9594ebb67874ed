import { SQUARE_COUNT } from '../../shared/minichess/index.js';
import { instantiateCore } from '../wasm-module.js';

/** The module's exports (`bots/minichess/wasm/assembly/`); pointers are byte offsets into `memory`. */
interface CoreExports {
  squaresPointer(): number;
  movesPointer(): number;
  scan(us: number, own: number, other: number, noisyOnly: boolean): number;
  readonly memory: { readonly buffer: ArrayBuffer };
}

let core: CoreExports | undefined;
let pieces: Int8Array;
let found: Int32Array;
/** The pieces whose copy the module holds: those of the board that generated moves last. */
let holder: Int8Array | undefined;

function loaded(): CoreExports {
  if (core) return core;
  core = instantiateCore<CoreExports>('minichess');
  // The module never grows its memory, so these views stay valid.
  pieces = new Int8Array(core.memory.buffer, core.squaresPointer(), SQUARE_COUNT);
  found = new Int32Array(core.memory.buffer, core.movesPointer(), 1024);
  return core;
}

/**
 * The MiniChess move generator in WebAssembly, for a search board that keeps its piece codes by
 * square (`squares`, white positive) and each side's squares as a set (bit = square): the moves
 * `MiniChessBoard` would generate, in its order, written at `out[offset]`. The module holds one
 * board's pieces at a time; a board's first call copies its own in, and `put` keeps the copy of
 * the board that holds it up to date.
 */
export const wasmMoves = {
  /** Moves of the side `us` (+1 white, -1 black): how many, or 0 when the king can be taken. */
  all(squares: Int8Array, us: number, own: number, other: number, out: Int32Array, offset: number): number {
    return Math.max(scanInto(squares, us, own, other, false, out, offset), 0);
  },

  /** Captures and promotions, or -1 where the king can be taken or there is no move at all. */
  noisy(squares: Int8Array, us: number, own: number, other: number, out: Int32Array, offset: number): number {
    return Math.max(scanInto(squares, us, own, other, true, out, offset), -1);
  },

  /** `squares[square] = code`, written through to the module's copy when it is this board's. */
  put(squares: Int8Array, square: number, code: number): void {
    squares[square] = code;
    if (holder === squares) pieces[square] = code;
  },
};

function scanInto(squares: Int8Array, us: number, own: number, other: number, noisyOnly: boolean, out: Int32Array, offset: number): number {
  const module = loaded();
  if (holder !== squares) {
    pieces.set(squares);
    holder = squares;
  }
  const n = module.scan(us, own, other, noisyOnly); // negative: the king can be taken, or (noisy) no move at all
  for (let i = 0; i < n; i++) out[offset + i] = found[i]!;
  return n;
}
