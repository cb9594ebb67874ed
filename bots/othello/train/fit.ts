import { moves, popcount } from '../../../shared/othello/bitboard.js';
import { INSTANCE_COUNT, PATTERN_FAMILIES, PATTERN_WEIGHTS, patternIndices } from '../patterns.js';
import { LINEAR_TERMS, linearTerms, STAGE_WEIGHTS, STAGES, stageOf } from '../learned-eval.js';
import { RECORD_INTS } from './selfplay.js';

/** How the weights are fitted: see docs/engine/othello.md for the values used. */
export interface FitSettings {
  /** Conjugate-gradient iterations per stage. */
  readonly iterations: number;
  /** Ridge penalty on every weight, in squared discs: holds rarely seen configurations near 0. */
  readonly ridge: number;
}

export const FIT: FitSettings = { iterations: 60, ridge: 2 };

/** Each pattern position's canonical position: configurations the shape's own symmetry maps onto each other share a weight. */
const CANONICAL = new Int32Array(PATTERN_WEIGHTS);
for (const family of PATTERN_FAMILIES) {
  for (let i = 0; i < family.size; i++) CANONICAL[family.offset + i] = family.offset + family.canonical[i]!;
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

/**
 * Fits every stage on its own positions and its neighbours' (which smooths the weights from one
 * stage to the next), and expands each table again over the configurations that share a
 * weight. Returns the weights in hundredths of a disc, and each stage's error.
 */
export function fitWeights(train: Int32Array, test: Int32Array, settings: FitSettings = FIT, onStage?: (fit: StageFit) => void): { weights: Int16Array; fits: StageFit[] } {
  const weights = new Int16Array(STAGES * STAGE_WEIGHTS);
  const fits: StageFit[] = [];
  for (let stage = 0; stage < STAGES; stage++) {
    const rows = rowsOf(train, (s) => Math.abs(s - stage) <= 1);
    const x = leastSquares(rows, settings);
    const own = rowsOf(train, (s) => s === stage);
    const held = rowsOf(test, (s) => s === stage);
    const fit = { stage, trainPositions: own.count, testPositions: held.count, trainRmse: rmse(own, x), testRmse: rmse(held, x) };
    fits.push(fit);
    onStage?.(fit);
    const base = stage * STAGE_WEIGHTS;
    for (let i = 0; i < PATTERN_WEIGHTS; i++) weights[base + i] = toHundredths(x[CANONICAL[i]!]!);
    for (let t = 0; t < LINEAR; t++) weights[base + PATTERN_WEIGHTS + t] = toHundredths(x[PATTERN_WEIGHTS + t]!);
  }
  return { weights, fits };
}

function toHundredths(discs: number): number {
  return Math.max(-32767, Math.min(32767, Math.round(discs * 100)));
}
