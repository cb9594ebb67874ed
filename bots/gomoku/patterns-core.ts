import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { POINTS } from '../../shared/gomoku/board.js';

/** Written by `npm run build` (`bots/gomoku/wasm/`); the tests, run from the sources, read the built one. */
export const LINES_WASM_FILE = fileURLToPath(new URL(import.meta.url.includes('/dist/bots/') ? './lines.wasm' : '../../dist/bots/gomoku/lines.wasm', import.meta.url));

/** How many LinePatterns keep their state in the module at once; more are kept in JavaScript arrays. */
export const CORE_SLOTS = 1024;

/** A slot's parts, in bytes from its start: as `bots/gomoku/wasm/assembly/index.ts` lays them out. */
export const SLOT = (() => {
  const keys = 0;
  const moveValues = keys + 4 * POINTS * 4;
  const totals = moveValues + 4 * 3 * POINTS;
  const counts = totals + 4 * 3;
  const combos = counts + 4 * 3 * 16;
  const cells = combos + 4 * 3 * 4;
  const threats = cells + POINTS;
  return { keys, moveValues, totals, counts, combos, cells, threats, bytes: (threats + 3 * POINTS + 15) & ~15 };
})();

/** The order of the module's `tablePointers()`. */
export const TABLES = ['freestyleCodes', 'exactFiveCodes', 'freestyleStart', 'freestyleSlot', 'freestyleShift', 'exactFiveStart', 'exactFiveSlot', 'exactFiveShift', 'patternValue', 'threatUnit', 'comboOf', 'blackMoveValue', 'whiteMoveValue'] as const;
export type TableName = (typeof TABLES)[number];

interface LinesExports {
  slotBytes(): number;
  tablePointers(): number;
  newSlots(count: number): number;
  place(base: number, point: number, stone: number, exactFive: number): void;
  remove(base: number, point: number, exactFive: number): void;
  readonly memory: { readonly buffer: ArrayBuffer };
}

/** The part of the WebAssembly API used here: this project's `lib` (ES2022, no DOM) does not declare it. */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
};

/**
 * The module and its slots: made on first use, synchronously, with room for `CORE_SLOTS` slots
 * made at once, so that the memory never grows and views of it stay valid. A slot is given back
 * by `release` (a search's board, when the search ends) or when its LinePatterns is collected:
 * collection alone comes too late, as a board that lived through a search is old and waits for a
 * full collection.
 */
export interface LinesCore {
  readonly exports: LinesExports;
  readonly buffer: ArrayBuffer;
  /** Where each table starts, to be filled by `patterns.ts` once. */
  readonly tables: Record<TableName, number>;
  /** A free slot's address for `owner`, held until it gives it back or is collected; undefined when all are taken. */
  take(owner: object): number | undefined;
  /** How many slots are free. */
  freeSlots(): number;
  /** `owner` gives the slot at `base` back. */
  give(owner: object, base: number): void;
}

let core: LinesCore | null | undefined;

/** The core, or null when the module is not built (the patterns are then kept in JavaScript). */
export function linesCore(): LinesCore | null {
  if (core !== undefined) return core;
  if (!existsSync(LINES_WASM_FILE)) return (core = null);
  const exports = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(LINES_WASM_FILE)), { env: {} }).exports as unknown as LinesExports;
  if (exports.slotBytes() !== SLOT.bytes) throw new Error(`${LINES_WASM_FILE} lays out a slot in ${exports.slotBytes()} bytes, patterns-core.ts in ${SLOT.bytes}: \`npm run build\` again.`);
  const pointers = new Uint32Array(exports.memory.buffer, exports.tablePointers(), TABLES.length);
  const tables = Object.fromEntries(TABLES.map((name, i) => [name, pointers[i]!])) as Record<TableName, number>;
  const first = exports.newSlots(CORE_SLOTS);
  const free = Array.from({ length: CORE_SLOTS }, (_, i) => first + (CORE_SLOTS - 1 - i) * SLOT.bytes);
  const released = new FinalizationRegistry<number>((base) => free.push(base));
  core = {
    exports,
    buffer: exports.memory.buffer,
    tables,
    take: (owner) => {
      const base = free.pop();
      if (base !== undefined) released.register(owner, base, owner);
      return base;
    },
    freeSlots: () => free.length,
    give: (owner, base) => {
      released.unregister(owner);
      free.push(base);
    },
  };
  return core;
}
