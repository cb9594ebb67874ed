/**
 * The learned evaluation's patterns: groups of squares whose contents (empty, the side to move's,
 * the other side's) index a weight table, Logistello's and Edax's kind of evaluation. Each family
 * is one shape written at the top-left of the board; its images under the board's eight
 * symmetries are its instances, and all instances of a family share one table.
 *
 * An index is `Σ 3^k × digit(square k)`, digit 0 empty, 1 the side to move, 2 the other side.
 * Configurations that a symmetry of the shape itself maps onto each other (an edge read from
 * either end) share a weight: training folds them with `canonical`, and the shipped table is
 * expanded again, so the evaluation pays nothing for it.
 */

export interface PatternFamily {
  readonly name: string;
  /** Squares of the first instance, in index order. */
  readonly squares: readonly number[];
  /** Every instance's squares, in index order. */
  readonly instances: readonly (readonly number[])[];
  /** 3^squares. */
  readonly size: number;
  /** Where this family's table starts in a stage's weights. */
  readonly offset: number;
  /** For each of the shape's own symmetries, where position k of an image reads its digit (for `canonicalIndices`). */
  readonly symmetrySources: readonly (readonly number[])[];
}

type Cell = readonly [row: number, col: number];

const row = (r: number, from = 0, to = 7): Cell[] => Array.from({ length: to - from + 1 }, (_, i) => [r, from + i] as const);
const diagonal = (length: number): Cell[] => Array.from({ length }, (_, i) => [i, 8 - length + i] as const);

/** The shapes: edges with their X-squares, the corner 3×3 and 2×5, the inner rows, the diagonals. */
const SHAPES: readonly { name: string; cells: Cell[] }[] = [
  { name: 'edge+2x', cells: [...row(0), [1, 1], [1, 6]] },
  { name: 'corner3x3', cells: [...row(0, 0, 2), ...row(1, 0, 2), ...row(2, 0, 2)] },
  { name: 'corner2x5', cells: [...row(0, 0, 4), ...row(1, 0, 4)] },
  { name: 'row2', cells: row(1) },
  { name: 'row3', cells: row(2) },
  { name: 'row4', cells: row(3) },
  { name: 'diag8', cells: diagonal(8) },
  { name: 'diag7', cells: diagonal(7) },
  { name: 'diag6', cells: diagonal(6) },
  { name: 'diag5', cells: diagonal(5) },
  { name: 'diag4', cells: diagonal(4) },
];

/** The eight symmetries of the board as maps of (row, col). */
const SYMMETRIES: readonly ((c: Cell) => Cell)[] = [
  ([r, c]) => [r, c],
  ([r, c]) => [c, 7 - r],
  ([r, c]) => [7 - r, 7 - c],
  ([r, c]) => [7 - c, r],
  ([r, c]) => [r, 7 - c],
  ([r, c]) => [c, r],
  ([r, c]) => [7 - r, c],
  ([r, c]) => [7 - c, 7 - r],
];

const square = ([r, c]: Cell): number => r * 8 + c;
const setKey = (squares: readonly number[]): string => [...squares].sort((a, b) => a - b).join(',');

function buildFamilies(): PatternFamily[] {
  let offset = 0;
  return SHAPES.map(({ name, cells }) => {
    const base = cells.map(square);
    const instances: number[][] = [];
    const seen = new Set<string>();
    for (const symmetry of SYMMETRIES) {
      const image = cells.map((c) => square(symmetry(c)));
      const key = setKey(image);
      if (seen.has(key)) continue;
      seen.add(key);
      instances.push(image);
    }
    // The shape's self-maps, as permutations of its index positions.
    const selfMaps: number[][] = [];
    const baseKey = setKey(base);
    for (const symmetry of SYMMETRIES) {
      const image = cells.map((c) => square(symmetry(c)));
      if (setKey(image) !== baseKey) continue;
      selfMaps.push(image.map((sq) => base.indexOf(sq)));
    }
    const size = 3 ** base.length;
    const symmetrySources = selfMaps.map((map) => base.map((_, k) => map.indexOf(k)));
    const family: PatternFamily = { name, squares: base, instances, size, offset, symmetrySources };
    offset += size;
    return family;
  });
}

export const PATTERN_FAMILIES: readonly PatternFamily[] = buildFamilies();

const canonicalTables = new Map<PatternFamily, Uint32Array>();

/**
 * `canonicalIndices(family)[index]`: the smallest index of the configurations the shape's own
 * symmetries map this one onto, which share a weight in training. Made on first use (it is most
 * of this module's start-up, and only training reads it).
 */
export function canonicalIndices(family: PatternFamily): Uint32Array {
  const known = canonicalTables.get(family);
  if (known) return known;
  const length = family.squares.length;
  const canonical = new Uint32Array(family.size);
  const digits = new Uint8Array(length);
  for (let index = 0; index < family.size; index++) {
    for (let k = 0, x = index; k < length; k++, x = Math.floor(x / 3)) digits[k] = x % 3;
    let best = index;
    for (const source of family.symmetrySources) {
      let image = 0;
      for (let k = length - 1; k >= 0; k--) image = image * 3 + digits[source[k]!]!;
      if (image < best) best = image;
    }
    canonical[index] = best;
  }
  canonicalTables.set(family, canonical);
  return canonical;
}

/** Pattern weights per stage. */
export const PATTERN_WEIGHTS = PATTERN_FAMILIES.reduce((n, f) => n + f.size, 0);

/** Every instance of every family, flattened: squares, and for each instance its table's offset and size. */
export const INSTANCE_COUNT = PATTERN_FAMILIES.reduce((n, f) => n + f.instances.length, 0);
const INSTANCE_SQUARES: Int8Array = Int8Array.from(PATTERN_FAMILIES.flatMap((f) => f.instances.flat()));
const INSTANCE_LENGTH: Uint8Array = Uint8Array.from(PATTERN_FAMILIES.flatMap((f) => f.instances.map((i) => i.length)));
const INSTANCE_OFFSET: Int32Array = Int32Array.from(PATTERN_FAMILIES.flatMap((f) => f.instances.map(() => f.offset)));

const cells = new Uint8Array(64);

/**
 * Writes each instance's weight position (its family's offset plus its index) for the side to
 * move `P` against `O` to `out[0 .. INSTANCE_COUNT)`.
 */
export function patternIndices(pHi: number, pLo: number, oHi: number, oLo: number, out: Int32Array): void {
  for (let i = 0; i < 32; i++) {
    cells[i] = ((pLo >>> i) & 1) | (((oLo >>> i) & 1) << 1);
    cells[i + 32] = ((pHi >>> i) & 1) | (((oHi >>> i) & 1) << 1);
  }
  let s = 0;
  for (let i = 0; i < INSTANCE_COUNT; i++) {
    const length = INSTANCE_LENGTH[i]!;
    let index = 0;
    for (let k = s + length - 1; k >= s; k--) index = index * 3 + cells[INSTANCE_SQUARES[k]!]!;
    out[i] = INSTANCE_OFFSET[i]! + index;
    s += length;
  }
}

/**
 * For each square, the instances it belongs to and its power of 3 in each: entries
 * `SQUARE_START[sq] .. SQUARE_START[sq + 1]` of `SQUARE_INSTANCE` and `SQUARE_POWER`. A move
 * changes only the indices of the squares it places and flips, which is what lets the search keep
 * the indices up to date as it makes and unmakes moves instead of reading all 46 again.
 */
export const SQUARE_START = new Int32Array(65);
export const SQUARE_INSTANCE: Int32Array = new Int32Array(INSTANCE_SQUARES.length);
export const SQUARE_POWER: Int32Array = new Int32Array(INSTANCE_SQUARES.length);
{
  const bySquare: [number, number][][] = Array.from({ length: 64 }, () => []);
  for (let i = 0, s = 0; i < INSTANCE_COUNT; s += INSTANCE_LENGTH[i]!, i++) {
    for (let k = 0; k < INSTANCE_LENGTH[i]!; k++) bySquare[INSTANCE_SQUARES[s + k]!]!.push([i, 3 ** k]);
  }
  let n = 0;
  for (let sq = 0; sq < 64; sq++) {
    SQUARE_START[sq] = n;
    for (const [instance, power] of bySquare[sq]!) {
      SQUARE_INSTANCE[n] = instance;
      SQUARE_POWER[n++] = power;
    }
  }
  SQUARE_START[64] = n;
}

/** `indices` (from `patternIndices`) after the digit of `square` changed by `delta` (−2 … 2). */
export function changeSquare(indices: Int32Array, square: number, delta: number): void {
  for (let j = SQUARE_START[square]!, end = SQUARE_START[square + 1]!; j < end; j++) {
    const instance = SQUARE_INSTANCE[j]!;
    indices[instance] = indices[instance]! + SQUARE_POWER[j]! * delta;
  }
}

const EXCHANGED_DIGIT = [0, 2, 1] as const;

/**
 * For each family, the index of the same configuration with the two sides' digits exchanged (1 ↔
 * 2), over the whole weight table: indices kept from black's side read white's weights through it.
 */
export function exchangedIndex(): Int32Array {
  const out = new Int32Array(PATTERN_WEIGHTS);
  const image = new Int32Array(Math.max(...PATTERN_FAMILIES.map((f) => f.size)));
  for (const f of PATTERN_FAMILIES) {
    // The lowest digit exchanged, plus three times the image of the digits above it, found already.
    for (let index = 1; index < f.size; index++) image[index] = EXCHANGED_DIGIT[index % 3]! + 3 * image[(index - (index % 3)) / 3]!;
    for (let index = 0; index < f.size; index++) out[f.offset + index] = f.offset + image[index]!;
  }
  return out;
}
