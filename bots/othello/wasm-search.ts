import type { NativeTree, ProbCut } from '../engine/search.js';
import { currentWeights, evaluateLearned, STAGE_WEIGHTS } from './learned-eval.js';
import { INSTANCE_COUNT, patternIndices, SQUARE_INSTANCE, SQUARE_POWER, SQUARE_START } from './patterns.js';
import { BLACK_TO_MOVE_HI, BLACK_TO_MOVE_LO, KEY_HI, KEY_LO, ORDER_WEIGHTS, type OthelloSearchBoard } from './search-board.js';
import { loaded, setMidgameBudget } from './wasm-core.js';

/**
 * The Othello engine's midgame search in the WebAssembly core (`wasm/assembly/midgame.ts`), as
 * the generic search's `native` tree: the same nodes as `negamax` on `OthelloSearchBoard` with
 * the learned evaluation, about three times as fast. Each engine keeps a transposition table in
 * the module's memory, as it kept a `TranspositionTable`, from a bounded set (`tableFor`).
 */

const TABLE_BITS = 20;
const MAX_PLY = 128;
/** Tables the module holds at most (16 MB each): its memory never shrinks, so engines share them. */
export const MAX_TABLES = 8;

/**
 * A table and the engine using it. An engine keeps its table between searches while it lives and
 * fewer than MAX_TABLES engines search; past that, the one least recently used is cleared for
 * the next engine, which only costs the engine it was taken from what its table knew.
 */
interface TableSlot {
  readonly base: number;
  owner: WeakRef<WasmMidgame> | undefined;
  used: number;
}

const slots: TableSlot[] = [];
let clock = 0;

function tableFor(engine: WasmMidgame, held: TableSlot | undefined): TableSlot {
  clock++;
  if (held && held.owner?.deref() === engine) {
    held.used = clock;
    return held;
  }
  const core = loaded();
  let slot = slots.find((s) => s.owner?.deref() === undefined);
  if (!slot && slots.length < MAX_TABLES) {
    slot = { base: core.midNewTable(TABLE_BITS), owner: undefined, used: 0 }; // memory the module just grew is zero
    slots.push(slot);
  } else {
    slot ??= slots.reduce((a, b) => (a.used <= b.used ? a : b));
    core.midClearTable(slot.base, TABLE_BITS);
  }
  slot.owner = new WeakRef(engine);
  slot.used = clock;
  return slot;
}

/** Where the module's fixed tables live, found and filled on first use. */
let pointers: { readonly indices: number; readonly pv: number; readonly shallow: number; readonly margin: number } | undefined;
let weightsLoaded: Int16Array | undefined;
let probCutLoaded: ProbCut | undefined | null = null;

function memoryI32(address: number, length: number): Int32Array {
  return new Int32Array(loaded().memory.buffer, address, length);
}

/** The hash keys, the squares' pattern instances and their ordering weights, written into the module once. */
function fixedTables(): NonNullable<typeof pointers> {
  if (pointers) return pointers;
  const core = loaded();
  const at = memoryI32(core.midTablePointers(), 9);
  const [keys, squareStart, squareInstance, squarePower, shallow, margin, indices, pv, orderWeights] = Array.from(at);
  const keyWords = memoryI32(keys!, 4097 * 2);
  for (let i = 0; i < KEY_HI.length; i++) {
    keyWords[2 * i] = KEY_LO[i]!;
    keyWords[2 * i + 1] = KEY_HI[i]!;
  }
  keyWords[2 * 4096] = BLACK_TO_MOVE_LO;
  keyWords[2 * 4096 + 1] = BLACK_TO_MOVE_HI;
  memoryI32(squareStart!, 65).set(SQUARE_START);
  memoryI32(squareInstance!, SQUARE_INSTANCE.length).set(SQUARE_INSTANCE);
  memoryI32(squarePower!, SQUARE_POWER.length).set(SQUARE_POWER);
  memoryI32(orderWeights!, 64).set(ORDER_WEIGHTS);
  pointers = { indices: indices!, pv: pv!, shallow: shallow!, margin: margin! };
  return pointers;
}

/** The weights in use, in the module when they changed. */
function loadWeights(): void {
  const w = currentWeights();
  if (w === weightsLoaded) return;
  const core = loaded();
  const address = core.midWeights(STAGE_WEIGHTS); // may grow the memory: its buffer is read after
  new Int16Array(core.memory.buffer, address, w.length).set(w);
  weightsLoaded = w;
}

function loadProbCut(probCut: ProbCut | undefined, at: NonNullable<typeof pointers>): void {
  if (probCut === probCutLoaded) return;
  const core = loaded();
  core.midProbCut(probCut ? probCut.minDepth : 2 ** 31 - 1);
  if (probCut) {
    const shallow = memoryI32(at.shallow, MAX_PLY);
    const margin = memoryI32(at.margin, MAX_PLY);
    for (let depth = 0; depth < MAX_PLY; depth++) {
      shallow[depth] = probCut.shallowDepth(depth);
      margin[depth] = probCut.margin(depth);
    }
  }
  probCutLoaded = probCut;
}

/** One engine's search in the module: its table, and each search's age in it. */
export class WasmMidgame {
  private slot: TableSlot | undefined;
  private age = 0;

  /** The native tree for a search of `board`; undefined when the board uses another evaluation than the learned one. */
  over(board: OthelloSearchBoard): NativeTree | undefined {
    if (board.evaluation !== evaluateLearned) return undefined;
    return {
      begin: (probCut, outOfBudget) => {
        const core = loaded();
        this.slot = tableFor(this, this.slot);
        const at = fixedTables();
        loadWeights();
        loadProbCut(probCut, at);
        setMidgameBudget(outOfBudget);
        this.age = (this.age + 1) & 0xff;
        const [black, white] = [memoryI32(at.indices, INSTANCE_COUNT), memoryI32(at.indices + 4 * INSTANCE_COUNT, INSTANCE_COUNT)];
        patternIndices(board.pHi, board.pLo, board.oHi, board.oLo, board.blackToMove ? black : white);
        patternIndices(board.oHi, board.oLo, board.pHi, board.pLo, board.blackToMove ? white : black);
        core.midBegin(board.pHi, board.pLo, board.oHi, board.oLo, board.blackToMove, this.slot.base, TABLE_BITS, this.age);
      },
      negamax: (depth, alpha, beta) => loaded().midNegamax(depth, alpha, beta),
      nodes: () => loaded().midNodes(),
      stopped: () => loaded().midStopped() !== 0,
      pv: () => Array.from(memoryI32(fixedTables().pv, loaded().midPvLength())),
    };
  }
}
