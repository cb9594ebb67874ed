import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Game } from '../../shared/games.js';
import { replay } from '../../shared/record.js';
import type { GameId } from '../../shared/rules.js';
import { UsageError } from '../tool-io.js';

/** How many plies the book's openings have, by game. */
export const BOOK_PLIES: Readonly<Record<GameId, readonly [number, number]>> = { othello: [6, 8], gomoku: [3, 5], minichess: [2, 4] };

/** Where the opening books are: `bots/openings/<game>.txt`, one opening a line, `#` comments. */
export function bookPath(game: GameId): string {
  return fileURLToPath(new URL(import.meta.url.includes('/dist/bots/') ? `../../../bots/openings/${game}.txt` : `../openings/${game}.txt`, import.meta.url));
}

/** Reads a book: each line's moves, checked against the rules. */
export function readBook(game: Game, path = bookPath(game.id)): number[][] {
  if (!existsSync(path)) throw new Error(`no opening book at ${path}${path === bookPath(game.id) ? '; make one with npm run books' : ''}`);
  const openings: number[][] = [];
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const text = line.replace(/#.*/, '').trim();
      if (!text) return;
      const played = replay(game.rules, game.rules.start(), text);
      if (!played.ok) throw new Error(`${path}:${i + 1}: ${played.error.move}: ${played.error.message}`);
      openings.push([...played.value.moves]);
    });
  return openings;
}

/** A book named by `--book`, read now, so that a missing, unreadable or empty file is a usage error. */
export function bookArg(game: Game, path: string): number[][] {
  let openings: number[][];
  try {
    openings = readBook(game, path);
  } catch (error) {
    throw new UsageError(`--book: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (openings.length === 0) throw new UsageError(`--book: ${path} holds no openings.`);
  return openings;
}
