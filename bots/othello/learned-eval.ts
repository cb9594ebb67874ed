import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { moves, popcount } from '../../shared/othello/bitboard.js';
import { frontierOf } from './evaluate.js';
import { exchangedIndex, INSTANCE_COUNT, PATTERN_WEIGHTS, patternIndices } from './patterns.js';

/**
 * The learned midgame evaluation: pattern weights plus a few whole-board terms, one weight set
 * per stage of the game, fitted by ridge least squares to self-play positions labelled by the
 * exact solver near the end and by searches backed up stage by stage before (`npm run
 * train:othello`, docs/engine/othello.md). Scores are hundredths of a disc for the side to move.
 * Against the hand-made evaluation: +102.5 Elo ± 72.5, 122 games (SPRT H1); +129 Elo over 400 games.
 */

/** Plies per stage: stage `s` holds the positions with `4 + 4s` to `7 + 4s` discs. */
export const PLIES_PER_STAGE = 4;
export const STAGES = 15;

/** The whole-board terms, after the patterns in each stage's weights. */
export const LINEAR_TERMS = ['mobility', 'opponent mobility', 'potential mobility', 'opponent potential mobility', 'parity', 'bias'] as const;
export const STAGE_WEIGHTS = PATTERN_WEIGHTS + LINEAR_TERMS.length;

export function stageOf(discs: number): number {
  return Math.min(STAGES - 1, Math.max(0, (discs - 4) >> 2));
}

/** The whole-board terms' values, for the side to move with `mobilityP` placements. */
export function linearTerms(pHi: number, pLo: number, oHi: number, oLo: number, mobilityP: number, out: Float64Array | Int32Array): void {
  const emptyHi = ~(pHi | oHi);
  const emptyLo = ~(pLo | oLo);
  moves(oHi, oLo, pHi, pLo, scratch);
  out[0] = mobilityP;
  out[1] = popcount(scratch[0]!) + popcount(scratch[1]!);
  out[2] = frontierOf(oHi, oLo, emptyHi, emptyLo);
  out[3] = frontierOf(pHi, pLo, emptyHi, emptyLo);
  out[4] = (popcount(emptyHi) + popcount(emptyLo)) & 1 ? 1 : -1;
  out[5] = 1;
}

const MAGIC = 0x54575242; // "BRWT"
const HEADER_INTS = 4;

/** The shipped file: a small header, then every stage's weights as 16-bit integers, gzipped. */
export function encodeWeights(weights: Int16Array): Buffer {
  const header = Int32Array.from([MAGIC, STAGES, PATTERN_WEIGHTS, LINEAR_TERMS.length]);
  return gzipSync(Buffer.concat([Buffer.from(header.buffer), Buffer.from(weights.buffer, weights.byteOffset, weights.byteLength)]), { level: 9 });
}

export function decodeWeights(file: Buffer): Int16Array {
  // Inflated in one piece of the size the gzip trailer gives (bounded, should the file be damaged), not in 16 KB pieces joined after.
  const size = file.length >= 4 ? file.readUInt32LE(file.length - 4) : 0;
  const raw = gunzipSync(file, { chunkSize: Math.min(Math.max(size, 64 * 1024), 64 * 1024 * 1024) });
  const header = new Int32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + HEADER_INTS * 4));
  if (header[0] !== MAGIC || header[1] !== STAGES || header[2] !== PATTERN_WEIGHTS || header[3] !== LINEAR_TERMS.length) {
    throw new Error('the Othello weights file does not match these patterns and stages; run npm run train:othello');
  }
  const body = raw.subarray(HEADER_INTS * 4);
  // A view when aligned: copying 5 MB costs more than the rest of the decoding's tail.
  if (body.byteOffset % 2 === 0) return new Int16Array(body.buffer, body.byteOffset, body.byteLength / 2);
  return new Int16Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength));
}

export const WEIGHTS_FILE = fileURLToPath(new URL(import.meta.url.includes('/dist/bots/') ? '../../../bots/othello/weights.bin.gz' : './weights.bin.gz', import.meta.url));

let weights: Int16Array | undefined;

/** The shipped weights, read on first use. */
export function learnedWeights(): Int16Array {
  weights ??= decodeWeights(readFileSync(WEIGHTS_FILE));
  return weights;
}

/** The weights in use: the shipped ones unless `useWeights` set others. */
export function currentWeights(): Int16Array {
  return weights ?? learnedWeights();
}

/** Uses other weights (training, tests); `undefined` goes back to the shipped file. */
export function useWeights(w: Int16Array | undefined): void {
  weights = w;
}

const scratch = new Int32Array(2);
const indices = new Int32Array(INSTANCE_COUNT);
const terms = new Int32Array(LINEAR_TERMS.length);

/** The learned evaluation of the position for `P`, the side to move, which has `mobilityP` placements. */
export function evaluateLearned(pHi: number, pLo: number, oHi: number, oLo: number, mobilityP: number): number {
  patternIndices(pHi, pLo, oHi, oLo, indices);
  return weighed(currentWeights(), indices, pHi, pLo, oHi, oLo, mobilityP);
}

/**
 * The same evaluation from pattern indices kept from black's side (`patternIndices` with black as
 * `P`), as the search keeps them up to date move by move: with white to move they read the
 * weights with the two sides exchanged.
 */
export function evaluateFromBlackIndices(blackIndices: Int32Array, blackToMove: boolean, pHi: number, pLo: number, oHi: number, oLo: number, mobilityP: number): number {
  const own = currentWeights();
  return weighed(blackToMove ? own : exchangedWeights(own), blackIndices, pHi, pLo, oHi, oLo, mobilityP);
}

function weighed(w: Int16Array, patternIndices: Int32Array, pHi: number, pLo: number, oHi: number, oLo: number, mobilityP: number): number {
  const discs = popcount(pHi | oHi) + popcount(pLo | oLo);
  const base = stageOf(discs) * STAGE_WEIGHTS;
  let score = 0;
  for (let i = 0; i < INSTANCE_COUNT; i++) score += w[base + patternIndices[i]!]!;
  linearTerms(pHi, pLo, oHi, oLo, mobilityP, terms);
  const linear = base + PATTERN_WEIGHTS;
  for (let t = 0; t < LINEAR_TERMS.length; t++) score += w[linear + t]! * terms[t]!;
  return score;
}

let exchanged: { readonly of: Int16Array; readonly weights: Int16Array } | undefined;

/** `w` with every pattern configuration's two sides exchanged, made once per weight set. */
export function exchangedWeights(w: Int16Array): Int16Array {
  if (exchanged?.of === w) return exchanged.weights;
  const map = exchangedIndex();
  const out = w.slice();
  for (let base = 0; base < w.length; base += STAGE_WEIGHTS) {
    for (let i = 0; i < PATTERN_WEIGHTS; i++) out[base + i] = w[base + map[i]!]!;
  }
  exchanged = { of: w, weights: out };
  return out;
}
