import { availableParallelism } from 'node:os';
import { GAMES } from '../../shared/games.js';
import type { GameId } from '../../shared/rules.js';
import { openingsFor, pointsOf } from './match.js';
import { GamePool } from './pool.js';
import { pairSlot, sprtState, type Pentanomial, type SprtBounds, type SprtState } from './sprt.js';

export interface SprtOptions {
  readonly game: GameId;
  readonly a: string;
  readonly b: string;
  readonly bounds: SprtBounds;
  readonly seed: number;
  /** The openings of a book file (`bookArg`), when not the game's own book. */
  readonly book?: readonly (readonly number[])[];
  readonly threads?: number;
  /** Stop undecided after this many pairs. */
  readonly maxPairs?: number;
  readonly onPair?: (progress: SprtProgress) => void;
}

export interface SprtProgress extends SprtState {
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
  readonly counts: Pentanomial;
}

/**
 * Plays game pairs on the book (each opening twice, colours swapped) until the SPRT accepts H0
 * or H1, or `maxPairs` is reached. Games run on `threads` worker threads; pairs are counted in
 * the order they finish.
 */
export async function runSprt(options: SprtOptions): Promise<SprtProgress> {
  const game = GAMES[options.game];
  const nextOpening = openingsFor(game, 'book', options.seed, options.book);
  const maxPairs = options.maxPairs ?? 100_000;
  const threads = Math.max(1, options.threads ?? availableParallelism());
  const pool = new GamePool(threads);
  const counts = [0, 0, 0, 0, 0];
  const wdl = [0, 0, 0];
  let state: SprtProgress | undefined;
  let started = 0;
  let finished = 0;

  const playPair = async (): Promise<void> => {
    const opening = nextOpening();
    const index = started++ * 2;
    const [first, second] = await pool.playPair({ index, game: options.game, a: options.a, b: options.b, opening });
    const points = [pointsOf(first, true), pointsOf(second, false)] as const;
    for (const p of points) wdl[p === 1 ? 0 : p === 0.5 ? 1 : 2]!++;
    counts[pairSlot(points[0], points[1])]!++;
    finished++;
    const pentanomial = [...counts] as unknown as Pentanomial;
    state = { ...sprtState(pentanomial, options.bounds), wins: wdl[0]!, draws: wdl[1]!, losses: wdl[2]!, counts: pentanomial };
    options.onPair?.(state);
  };

  // Enough pairs in flight to keep every thread busy; each finished pair starts the next.
  const lane = async (): Promise<void> => {
    while (started < maxPairs && !state?.verdict) await playPair();
  };
  try {
    await Promise.all(Array.from({ length: Math.ceil(threads / 2) }, lane));
  } finally {
    await pool.close();
  }
  if (finished === 0 || !state) throw new Error('no pair was played');
  return state;
}
