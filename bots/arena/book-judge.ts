import type { Color } from '../../shared/color.js';
import { GAMES } from '../../shared/games.js';
import type { GameId } from '../../shared/rules.js';
import type { PlayedGame } from './game.js';
import { GamePool } from './pool.js';

/** One self-play game of an opening: the colour that won (or a draw), how, and its plies, the opening's included. */
export interface JudgedGame {
  readonly winner: Color | 'draw';
  readonly reason: string;
  readonly plies: number;
}

/** An opening judged by a bot's self-play: a line of the judging log (`judging-log.ts`). */
export interface JudgedOpening {
  /** The opening's moves in the book's notation. */
  readonly opening: string;
  readonly games: readonly [JudgedGame, JudgedGame];
  readonly kept: boolean;
  readonly bot: string;
  readonly game: GameId;
}

/**
 * The criterion: an opening is even enough to keep when its two games split strictly, one won by
 * each colour (so by the side to move after the opening once, and by the other once). A draw
 * splits nothing: an opening that a bot draws may still be one-sided against a weaker one.
 */
export function splitsStrictly(games: readonly [JudgedGame, JudgedGame]): boolean {
  const winners = games.map((g) => g.winner);
  return winners.includes('black') && winners.includes('white');
}

/** An opening's two games in a few words: `black five 57, white five 80`. */
export function gamesText(j: JudgedOpening): string {
  return j.games.map((g) => `${g.winner} ${g.reason} ${g.plies}`).join(', ');
}

/** A book of the kept openings, in the format of `bots/openings/`, its header saying how they were judged. */
export function judgedBookText(judged: readonly JudgedOpening[], how: { game: GameId; bot: string; book: string }): string {
  const kept = judged.filter((j) => j.kept);
  const header = [
    `# ${how.game} opening book judged by self-play: ${how.bot} against itself on each opening twice, colours swapped,`,
    `# kept when the two games split strictly, one won by each colour (a draw splits nothing): ${kept.length} kept of ${judged.length} judged.`,
    `# Made by boardroom judge-book --game ${how.game} --bot ${how.bot} from ${how.book}; each line's two games follow it.`,
  ];
  return [...header, ...kept.map((j) => `${j.opening} # ${gamesText(j)}`)].join('\n') + '\n';
}

export function judgedGame(played: PlayedGame): JudgedGame {
  return { winner: played.outcome.winner ?? 'draw', reason: played.outcome.reason, plies: played.moves.length };
}

export interface JudgingOptions {
  readonly game: GameId;
  /** A bot spec (see `bot-spec.ts`), playing both sides. */
  readonly bot: string;
  /** The openings to judge, in order. */
  readonly openings: readonly (readonly number[])[];
  readonly threads: number;
  /** Asked before each opening is started; false starts no more (those in play finish). */
  readonly goOn: () => boolean;
  /** Called as soon as both games of an opening are played. */
  readonly onJudged: (judged: JudgedOpening) => void;
}

/**
 * Plays each opening twice, the bot against itself with colours swapped as the arena plays a
 * pair, on worker threads: two games at once for each opening in play.
 */
export async function judgeOpenings(options: JudgingOptions): Promise<void> {
  const { game, bot, openings, threads } = options;
  if (openings.length === 0) return;
  const { rules } = GAMES[game];
  const pool = new GamePool(Math.min(threads, 2 * openings.length));
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < openings.length && options.goOn()) {
      const index = next++;
      const moves = openings[index]!;
      const opening = moves.map((m) => rules.formatMove(m)).join(' ');
      const played = await pool.playPair({ index: 2 * index, game, a: bot, b: bot, opening: moves }).catch((error: Error) => {
        throw new Error(`judging the opening ${opening} failed: ${error.message}`);
      });
      const games = [judgedGame(played[0]), judgedGame(played[1])] as const;
      options.onJudged({ opening, games, kept: splitsStrictly(games), bot, game });
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(Math.ceil(threads / 2), openings.length) }, lane));
  } finally {
    await pool.close();
  }
}
