import { availableParallelism } from 'node:os';
import { GAMES, type Game } from '../../shared/games.js';
import type { GameId } from '../../shared/rules.js';
import { seededRandom } from '../../shared/random.js';
import { estimateElo, type EloEstimate } from './elo.js';
import { randomOpening, type PlayedGame } from './game.js';
import { readBook } from './openings.js';
import { GamePool } from './pool.js';

export interface MatchOptions {
  readonly game: GameId;
  /** Bot specs (see `bot-spec.ts`). */
  readonly a: string;
  readonly b: string;
  readonly games: number;
  readonly seed: number;
  /** `book` (the default): the game's opening book; `random`: a few random plies. */
  readonly openings?: 'book' | 'random';
  /** The openings of a book file (`bookArg`), when not the game's own book. */
  readonly book?: readonly (readonly number[])[];
  readonly threads?: number;
  readonly onGame?: (done: number, total: number) => void;
}

export interface MatchGame extends PlayedGame {
  readonly aFirst: boolean;
  /** 1 A won, ½ draw, 0 A lost. */
  readonly points: number;
}

export interface MatchResult extends EloEstimate {
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
  readonly played: readonly MatchGame[];
}

/**
 * The openings of a match, one per pair of games: the book's (the game's, or `openings`) in an
 * order shuffled by the seed (going round again when the match is longer than the book), or random ones.
 */
export function openingsFor(game: Game, kind: 'book' | 'random', seed: number, openings?: readonly (readonly number[])[]): () => number[] {
  const random = seededRandom(seed);
  if (kind === 'random') return () => randomOpening(game, random);
  const book = openings ? openings.map((moves) => [...moves]) : readBook(game);
  for (let i = book.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [book[i], book[j]] = [book[j]!, book[i]!];
  }
  let next = 0;
  return () => book[next++ % book.length]!;
}

/** A's points in a game it played (first or second) from the opening. */
export function pointsOf(played: PlayedGame, aFirst: boolean): number {
  const aColor = aFirst ? played.firstMover : played.firstMover === 'black' ? 'white' : 'black';
  return played.outcome.winner === null ? 0.5 : played.outcome.winner === aColor ? 1 : 0;
}

/**
 * A match of `games` games between bots A and B: each opening is played twice, colours swapped,
 * and the games run side by side on worker threads (the bots think synchronously).
 */
export async function runMatch(options: MatchOptions): Promise<MatchResult> {
  const game = GAMES[options.game];
  const nextOpening = openingsFor(game, options.openings ?? 'book', options.seed, options.book);
  const pool = new GamePool(Math.min(options.threads ?? availableParallelism(), options.games));
  let done = 0;
  let opening: number[] = [];
  try {
    const played = await Promise.all(
      Array.from({ length: options.games }, (_, index) => {
        const aFirst = index % 2 === 0;
        if (aFirst) opening = nextOpening();
        const task = { index, game: options.game, first: aFirst ? options.a : options.b, second: aFirst ? options.b : options.a, opening };
        return pool.play(task).then(
          (p): MatchGame => {
            options.onGame?.(++done, options.games);
            return { ...p, aFirst, points: pointsOf(p, aFirst) };
          },
          (error: Error) => {
            const moves = task.opening.map((m) => game.rules.formatMove(m)).join(' ');
            throw new Error(`arena game ${index + 1} (${task.first} first, ${task.second} second, opening ${moves}) failed: ${error.message}`);
          },
        );
      }),
    );
    const wins = played.filter((g) => g.points === 1).length;
    const draws = played.filter((g) => g.points === 0.5).length;
    const losses = played.length - wins - draws;
    return { ...estimateElo({ wins, draws, losses }), wins, draws, losses, played };
  } finally {
    await pool.close();
  }
}
