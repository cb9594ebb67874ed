import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ROSTER_RATINGS, type MeasuredRating } from '../../server/ratings/roster-ratings.js';
import type { RatingView } from '../../shared/protocol/index.js';
import { GAME_IDS, type GameId } from '../../shared/rules.js';

const FILE = fileURLToPath(new URL('../../server/ratings/roster-ratings.ts', import.meta.url));

/** Writes the ladder's measured ratings as the roster's starts; a game not measured now keeps what the file had. */
export function writeRosterRatings(measured: Partial<Record<GameId, readonly RatingView[]>>, made: string): void {
  const ratings = Object.fromEntries(
    GAME_IDS.map((game) => {
      const rows = measured[game];
      const kept: Record<string, MeasuredRating> = rows ? Object.fromEntries(rows.map((r) => [r.name, { rating: r.rating, rd: r.rd }])) : { ...ROSTER_RATINGS.ratings[game] };
      return [game, kept];
    }),
  );
  const games = GAME_IDS.filter((g) => measured[g]).join(', ');
  // The file's head (its comment and types) stays as it is; only the value after `} = ` is written.
  const current = readFileSync(FILE, 'utf8');
  const head = current.slice(0, current.indexOf('} = ') + '} = '.length);
  const value = JSON.stringify({ made: `${made} (measured: ${games})`, ratings }, null, 2).replace(/"(\w+)":/g, '$1:').replace(/"/g, "'");
  const text = `${head}${value};\n`;
  writeFileSync(FILE, text);
  console.log(`wrote ${FILE}`);
}
