import type { Color } from '../color.js';
import type { TimeControl } from '../protocol/schemas.js';
import type { GameResult } from '../protocol/views.js';
import type { GameId, GameOptions } from '../rules.js';

/** What every record format is written from: the fields of `GET /api/games/:id`. */
export interface GameRecordInput {
  readonly id: string;
  readonly game: GameId;
  readonly options: GameOptions;
  readonly players: Readonly<Record<Color, { readonly kind: string; readonly name: string | null }>>;
  /** null while the game is unfinished, or when it ended with no result. */
  readonly result: GameResult | null;
  /** The start position's text, the moves in our notation, the last position's text. */
  readonly start: string;
  readonly moves: readonly string[];
  readonly position: string;
  readonly createdAt: number;
  /** The ms each move took, index by index with `moves` (null: unknown); absent when none are known. */
  readonly moveMs?: readonly (number | null)[];
  /** The game's time control, for the clock left after each move; absent: none. */
  readonly timeControl?: TimeControl;
}

/** `h:mm:ss`, with tenths when there are any (`0:01:05.3`): PGN's `%clk` and `%emt` form. */
export function clockText(ms: number): string {
  const tenths = Math.round(Math.max(0, ms) / 100);
  const h = Math.floor(tenths / 36_000);
  const m = Math.floor(tenths / 600) % 60;
  const s = Math.floor(tenths / 10) % 60;
  const fraction = tenths % 10 ? `.${tenths % 10}` : '';
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}${fraction}`;
}

/** A player's name as one line of a record: no brackets, quotes or line breaks, never empty. */
export function recordName(player: { readonly name: string | null }, fallback: string): string {
  const name = (player.name ?? '').replace(/[\r\n\t]+/g, ' ').replace(/[[\]"\\]/g, '').trim();
  return name || fallback;
}

/** `YYYY`, `MM`, `DD`, `hh`, `mm`, `ss` of an epoch time, in UTC. */
export function utcParts(at: number): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string> {
  const iso = new Date(at).toISOString(); // 2026-11-25T18:12:06.000Z
  return { year: iso.slice(0, 4), month: iso.slice(5, 7), day: iso.slice(8, 10), hour: iso.slice(11, 13), minute: iso.slice(14, 16), second: iso.slice(17, 19) };
}

/** Did the rules end the game (rather than a resignation, the clock, an agreement or the admin)? */
export function endedOnTheBoard(result: GameResult): boolean {
  return result.reason === 'no-moves' || result.reason === 'board-full' || result.reason === 'five' || result.reason === 'king-capture' || result.reason === 'step-limit';
}

/** A result that says who won or that it was drawn; `declined`, `expired` and `aborted` games have none. */
export function hasResult(result: GameResult | null): result is GameResult {
  return result !== null && result.reason !== 'declined' && result.reason !== 'expired' && result.reason !== 'aborted';
}
