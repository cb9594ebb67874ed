import type { GameId } from '../rules.js';
import { formatPsq } from './gomoku-psq.js';
import { formatPgn } from './minichess-pgn.js';
import { formatGgf } from './othello-ggf.js';
import type { GameRecordInput } from './record.js';

export { formatGgf } from './othello-ggf.js';
export { formatPsq } from './gomoku-psq.js';
export { formatPgn } from './minichess-pgn.js';
export type { GameRecordInput } from './record.js';

/** Each game's record format for download: `GET /api/games/:id?format=NAME`. */
export interface RecordFormat {
  readonly name: string;
  /** The file name's ending, without the dot. */
  readonly extension: string;
  readonly label: string;
  format(record: GameRecordInput): string;
}

export const RECORD_FORMATS: Readonly<Record<GameId, RecordFormat>> = {
  othello: { name: 'ggf', extension: 'ggf', label: 'GGF', format: formatGgf },
  gomoku: { name: 'psq', extension: 'psq', label: 'Gomocup PSQ', format: formatPsq },
  minichess: { name: 'pgn', extension: 'pgn', label: 'PGN', format: formatPgn },
};

/** Where a game's record downloads from. */
export function recordUrl(gameId: string, game: GameId): string {
  return `/api/games/${encodeURIComponent(gameId)}?format=${RECORD_FORMATS[game].name}`;
}
