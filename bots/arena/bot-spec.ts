import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { GAMES, type Game } from '../../shared/games.js';
import type { GameId } from '../../shared/rules.js';
import { allBotNames, catalogEntry } from '../registry.js';
import { bookArg } from './openings.js';
import { gameArg, UsageError, wholeNumberArg } from '../tool-io.js';

/**
 * A bot for the arena and the SPRT: a roster name (`engine-2`), or `name@dir` for the same name
 * in another checkout of this repo with its `dist/` built, or in a build directory itself, so a
 * change can be played against the build before it.
 */
export function rosterPathOf(dir: string): string | undefined {
  return [join(dir, 'dist', 'bots', 'roster.js'), join(dir, 'bots', 'roster.js')].map((p) => resolve(p)).find((p) => existsSync(p));
}

/** Checks a bot spec given on the command line, with a sentence the user can act on. */
export function checkBotSpec(flag: string, game: GameId, spec: string | undefined): string {
  const names = allBotNames()[game].join(', ');
  if (!spec) throw new UsageError(`${flag} names a bot: ${names}, or NAME@DIR for another checkout's.`);
  const at = spec.indexOf('@');
  const name = at >= 0 ? spec.slice(0, at) : spec;
  if (!catalogEntry(game, name)) throw new UsageError(`${flag}: no bot "${name}" plays ${game}; choose ${names}.`);
  if (at >= 0) {
    const dir = spec.slice(at + 1);
    if (!rosterPathOf(dir)) throw new UsageError(`${flag}: ${dir} holds no build of this repo (no dist/bots/roster.js); run npm run build there.`);
    return `${name}@${resolve(dir)}`;
  }
  return spec;
}

/** The options every match command takes: the game, the two bots, the seed of the openings, their book. */
export const MATCH_OPTIONS = {
  game: { type: 'string' },
  a: { type: 'string' },
  b: { type: 'string' },
  seed: { type: 'string' },
  book: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** The game, both bots checked, the seed and the openings of the book file (when given), from a match command's options. */
export function matchArgs(
  command: string,
  values: { game?: string; a?: string; b?: string; seed?: string; book?: string },
  positionals: readonly string[],
): { game: Game; a: string; b: string; seed: number; book: number[][] | undefined } {
  if (positionals.length > 0) throw new UsageError(`${command} takes options only, not "${positionals.join(' ')}".`);
  const game = GAMES[gameArg(values.game)];
  const a = checkBotSpec('--a', game.id, values.a);
  const b = checkBotSpec('--b', game.id, values.b);
  const seed = values.seed === undefined ? 1 : wholeNumberArg('--seed', values.seed, 0, 2 ** 31 - 1);
  const book = values.book === undefined ? undefined : bookArg(game, values.book);
  return { game, a, b, seed, book };
}
