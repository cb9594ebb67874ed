import { moves, popcount } from '../../../shared/othello/bitboard.js';
import { canonicalIndices, INSTANCE_COUNT, PATTERN_FAMILIES, PATTERN_WEIGHTS, patternIndices } from '../patterns.js';
import { LINEAR_TERMS, linearTerms, STAGE_WEIGHTS, STAGES, stageOf, useWeights } from '../learned-eval.js';
import { backedUpValue } from './backup.js';
import { RECORD_INTS, SELF_PLAY } from './selfplay.js';

/** How the weights are fitted: see docs/engine/othello.md for the values used. */
export interface FitSettings {
  /** Conjugate-gradient iterations per stage. */
  readonly iterations: number;
  /** Ridge penalty on every weight, in squared discs: holds rarely seen configurations near 0. */
  readonly ridge: number;
  /**
   * Plies of the search that labels a stage's positions from the later stages' weights (0: the
   * game's final margin only). The stages are then fitted from the last to the first.
   */
  readonly backupDepth: number;
  /** The share of the backed-up value in a label, the game's final margin making the rest. */
  readonly backupShare: number;
  /** At most this many positions of a stage are searched and fitted, when backing up. */
  readonly backupPositions: number;
}

export const FIT: FitSettings = { iterations: 60, ridge: 2, backupDepth: 4, backupShare: 1, backupPositions: 20_000 };

/** Each pattern position's canonical position: configurations the shape's own symmetry maps onto each other share a weight. */
const CANONICAL = new Int32Array(PATTERN_WEIGHTS);
for (const family of PATTERN_FAMILIES) {
  const canonical = canonicalIndices(family);
  for (let i = 0; i < family.size; i++) CANONICAL[family.offset + i] = family.offset + canonical[i]!;
}

const LINEAR = LINEAR_TERMS.length;

/** One stage's training rows: the pattern weights each position touches, its whole-board terms, its label. */
interface Rows {
  readonly count: number;
  readonly patterns: Int32Array;
  readonly linear: Float64Array;
  readonly labels: Float64Array;
}

export interface StageFit {
  readonly stage: number;
  readonly trainPositions: number;
  readonly testPositions: number;
  /** Root-mean-square error in discs, on the positions fitted and on held-out games. */
  readonly trainRmse: number;
  readonly testRmse: number;
}

const indices = new Int32Array(INSTANCE_COUNT);
const mobility = new Int32Array(2);

function rowsOf(records: Int32Array, stages: (stage: number) => boolean): Rows {
  const chosen: number[] = [];
  for (let r = 0; r < records.length; r += RECORD_INTS) {
    const discs = popcount(records[r]! | records[r + 2]!) + popcount(records[r + 1]! | records[r + 3]!);
    if (stages(stageOf(discs))) chosen.push(r);
  }
  const count = chosen.length;
  const patterns = new Int32Array(count * INSTANCE_COUNT);
  const linear = new Float64Array(count * LINEAR);
  const labels = new Float64Array(count);
  const terms = new Float64Array(LINEAR);
  chosen.forEach((r, row) => {
    const [pHi, pLo, oHi, oLo, label] = [records[r]!, records[r + 1]!, records[r + 2]!, records[r + 3]!, records[r + 4]!];
    patternIndices(pHi, pLo, oHi, oLo, indices);
    for (let i = 0; i < INSTANCE_COUNT; i++) patterns[row * INSTANCE_COUNT + i] = CANONICAL[indices[i]!]!;
    moves(pHi, pLo, oHi, oLo, mobility);
    linearTerms(pHi, pLo, oHi, oLo, popcount(mobility[0]!) + popcount(mobility[1]!), terms);
    linear.set(terms, row * LINEAR);
    labels[row] = label;
  });
  return { count, patterns, linear, labels };
}

/** The first `count` rows, sharing the arrays of `rows`. */
function firstRows(rows: Rows, count: number): Rows {
  return {
    count,
    patterns: rows.patterns.subarray(0, count * INSTANCE_COUNT),
    linear: rows.linear.subarray(0, count * LINEAR),
    labels: rows.labels.subarray(0, count),
  };
}

/** `out = A x`: each row's prediction. */
function predict(rows: Rows, x: Float64Array, out: Float64Array): void {
  for (let row = 0; row < rows.count; row++) {
    let sum = 0;
    const p = row * INSTANCE_COUNT;
    for (let i = 0; i < INSTANCE_COUNT; i++) sum += x[rows.patterns[p + i]!]!;
    const l = row * LINEAR;
    for (let t = 0; t < LINEAR; t++) sum += x[PATTERN_WEIGHTS + t]! * rows.linear[l + t]!;
    out[row] = sum;
  }
}

/** `out = Aᵀ r`. */
function scatter(rows: Rows, r: Float64Array, out: Float64Array): void {
  out.fill(0);
  for (let row = 0; row < rows.count; row++) {
    const v = r[row]!;
    const p = row * INSTANCE_COUNT;
    for (let i = 0; i < INSTANCE_COUNT; i++) out[rows.patterns[p + i]!]! += v;
    const l = row * LINEAR;
    for (let t = 0; t < LINEAR; t++) out[PATTERN_WEIGHTS + t]! += v * rows.linear[l + t]!;
  }
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Ridge least squares by conjugate gradients on the normal equations (CGLS), from zero. */
function leastSquares(rows: Rows, settings: FitSettings): Float64Array {
  const n = STAGE_WEIGHTS;
  const x = new Float64Array(n);
  const r = Float64Array.from(rows.labels);
  const s = new Float64Array(n);
  scatter(rows, r, s);
  const p = Float64Array.from(s);
  const q = new Float64Array(rows.count);
  let gamma = dot(s, s);
  for (let it = 0; it < settings.iterations && gamma > 1e-9; it++) {
    predict(rows, p, q);
    const alpha = gamma / (dot(q, q) + settings.ridge * dot(p, p));
    for (let i = 0; i < n; i++) x[i]! += alpha * p[i]!;
    for (let i = 0; i < rows.count; i++) r[i]! -= alpha * q[i]!;
    scatter(rows, r, s);
    for (let i = 0; i < n; i++) s[i]! -= settings.ridge * x[i]!;
    const next = dot(s, s);
    const beta = next / gamma;
    gamma = next;
    for (let i = 0; i < n; i++) p[i] = s[i]! + beta * p[i]!;
  }
  return x;
}

function rmse(rows: Rows, x: Float64Array): number {
  if (rows.count === 0) return 0;
  const out = new Float64Array(rows.count);
  predict(rows, x, out);
  let sum = 0;
  for (let i = 0; i < rows.count; i++) sum += (out[i]! - rows.labels[i]!) ** 2;
  return Math.sqrt(sum / rows.count);
}

/** Records of one stage, at most `limit` of them spread evenly over the data. */
function stageRecords(records: Int32Array, stage: number, limit: number): Int32Array {
  const rows: number[] = [];
  for (let r = 0; r < records.length; r += RECORD_INTS) {
    const discs = popcount(records[r]! | records[r + 2]!) + popcount(records[r + 1]! | records[r + 3]!);
    if (stageOf(discs) === stage) rows.push(r);
  }
  const step = Math.max(1, rows.length / limit);
  const out: number[] = [];
  for (let i = 0; i < rows.length && out.length < limit * RECORD_INTS; i += step) {
    const r = rows[Math.floor(i)]!;
    for (let k = 0; k < RECORD_INTS; k++) out.push(records[r + k]!);
  }
  return Int32Array.from(out);
}

/** Replaces each label with the backed-up value mixed with the game's margin (exactly solved positions keep theirs). */
function backUp(records: Int32Array, settings: FitSettings): void {
  for (let r = 0; r < records.length; r += RECORD_INTS) {
    const [pHi, pLo, oHi, oLo] = [records[r]!, records[r + 1]!, records[r + 2]!, records[r + 3]!];
    if (64 - popcount(pHi | oHi) - popcount(pLo | oLo) <= SELF_PLAY.exactEmpties) continue;
    const value = backedUpValue(pHi, pLo, oHi, oLo, settings.backupDepth);
    records[r + 4] = Math.round(settings.backupShare * value + (1 - settings.backupShare) * records[r + 4]!);
  }
}

/**
 * Fits the stages and expands each table again over the configurations that share a weight.
 * With `backupDepth` 0 every stage is fitted to the games' final margins on its own positions and
 * its neighbours' (which smooths the weights from one stage to the next). Otherwise the stages
 * are fitted from the last: a stage's positions are labelled by a search into the stage after
 * it, already fitted, and fitted with that stage's positions. Returns the weights in hundredths
 * of a disc, and each stage's error.
 */
export function fitWeights(
  train: Int32Array,
  test: Int32Array,
  settings: FitSettings = FIT,
  onStage?: (fit: StageFit) => void,
): { weights: Int16Array; fits: StageFit[] } {
  const weights = new Int16Array(STAGES * STAGE_WEIGHTS);
  const fits: StageFit[] = [];
  const backward = settings.backupDepth > 0;
  const order = Array.from({ length: STAGES }, (_, s) => (backward ? STAGES - 1 - s : s));
  const labelled: { train: Int32Array; test: Int32Array }[] = [];
  useWeights(weights);
  try {
    for (const stage of order) {
      let x: Float64Array;
      let own: Rows;
      let held: Rows;
      if (backward) {
        const stageTrain = stageRecords(train, stage, settings.backupPositions);
        const stageTest = stageRecords(test, stage, settings.backupPositions / 10);
        backUp(stageTrain, settings);
        backUp(stageTest, settings);
        labelled[stage] = { train: stageTrain, test: stageTest };
        const next = labelled[stage + 1];
        const rows = rowsOf(next ? concat(stageTrain, next.train) : stageTrain, () => true);
        x = leastSquares(rows, settings);
        // The stage's own positions are the first rows fitted: its error is measured on them without building them again.
        own = firstRows(rows, stageTrain.length / RECORD_INTS);
        held = rowsOf(stageTest, () => true);
      } else {
        x = leastSquares(rowsOf(train, (s) => Math.abs(s - stage) <= 1), settings);
        own = rowsOf(train, (s) => s === stage);
        held = rowsOf(test, (s) => s === stage);
      }
      const fit = { stage, trainPositions: own.count, testPositions: held.count, trainRmse: rmse(own, x), testRmse: rmse(held, x) };
      fits.push(fit);
      onStage?.(fit);
      const base = stage * STAGE_WEIGHTS;
      for (let i = 0; i < PATTERN_WEIGHTS; i++) weights[base + i] = toHundredths(x[CANONICAL[i]!]!);
      for (let t = 0; t < LINEAR; t++) weights[base + PATTERN_WEIGHTS + t] = toHundredths(x[PATTERN_WEIGHTS + t]!);
    }
  } finally {
    useWeights(undefined);
  }
  return { weights, fits };
}

function concat(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function toHundredths(discs: number): number {
  return Math.max(-32767, Math.min(32767, Math.round(discs * 100)));
}
