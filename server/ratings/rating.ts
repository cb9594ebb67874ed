import glicko2 from 'glicko2';
import type { Color } from '../../shared/color.js';
import type { GameId } from '../../shared/rules.js';
import { ROSTER_RATINGS, type MeasuredRating } from './roster-ratings.js';

/** Who can hold a rating: a person's account, an outside agent, or one level of our roster. */
export type IdentityKind = 'person' | 'agent' | 'bot';
export interface Identity {
  readonly kind: IdentityKind;
  readonly name: string;
}

export interface Glicko {
  readonly rating: number;
  readonly rd: number;
  readonly vol: number;
}

/** An identity's standing in one game, as the store keeps it. `version` 0: never rated yet. */
export interface RatingRecord extends Identity, Glicko {
  readonly game: GameId;
  readonly games: number;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
  readonly version: number;
  readonly updatedAt: number;
}

/** A rated game's effect on one seat, kept on the game for its result banner. */
export interface RatingChange {
  readonly before: number;
  readonly after: number;
  readonly rd: number;
}

/** Glickman's suggested start for an unrated player; tau bounds how fast volatility moves. */
export const NEW_RATING: Glicko = { rating: 1500, rd: 350, vol: 0.06 };
const TAU = 0.5;
/** A rating whose deviation is above this is provisional (shown with a "?"), as on Lichess. */
export const PROVISIONAL_RD = 110;

export const identityKey = (identity: Identity): string => `${identity.kind}:${identity.name}`;

/** The least deviation a roster bot starts with: provisional ("?"), so its first games here still move it. */
const ROSTER_START_RD = 150;

/** A roster bot's measured rating (`roster-ratings.ts`), when the ladder measured it. */
export function measuredStart(game: GameId, identity: Identity): MeasuredRating | undefined {
  return identity.kind === 'bot' ? ROSTER_RATINGS.ratings[game][identity.name] : undefined;
}

/** The record of one who has not played a rated game here: a new player's, or a roster bot's measured start. */
export function freshRecord(game: GameId, identity: Identity): RatingRecord {
  const measured = measuredStart(game, identity);
  const start = measured ? { ...NEW_RATING, rating: measured.rating, rd: Math.max(measured.rd, ROSTER_START_RD) } : NEW_RATING;
  return { game, kind: identity.kind, name: identity.name, ...start, games: 0, wins: 0, draws: 0, losses: 0, version: 0, updatedAt: 0 };
}

/** A rating worth showing or pairing by: one played here, or a roster bot's measured start. */
export const ratingKnown = (record: RatingRecord): boolean => record.version > 0 || measuredStart(record.game, record) !== undefined;

export const isProvisional = (record: Pick<Glicko, 'rd'>): boolean => record.rd > PROVISIONAL_RD;

/**
 * One game is one rating period for both players (as Lichess rates): each side's new rating from
 * the Glicko-2 update against the other's rating before the game.
 */
export function rateGame(black: RatingRecord, white: RatingRecord, winner: Color | null, now: number): { black: RatingRecord; white: RatingRecord } {
  const system = new glicko2.Glicko2({ tau: TAU, ...NEW_RATING });
  const b = system.makePlayer(black.rating, black.rd, black.vol);
  const w = system.makePlayer(white.rating, white.rd, white.vol);
  const blackScore = winner === 'black' ? 1 : winner === null ? 0.5 : 0;
  system.updateRatings([[b, w, blackScore]]);
  const after = (record: RatingRecord, player: typeof b, score: number): RatingRecord => ({
    ...record,
    rating: player.getRating(),
    rd: player.getRd(),
    vol: player.getVol(),
    games: record.games + 1,
    wins: record.wins + (score === 1 ? 1 : 0),
    draws: record.draws + (score === 0.5 ? 1 : 0),
    losses: record.losses + (score === 0 ? 1 : 0),
    version: record.version + 1,
    updatedAt: now,
  });
  return { black: after(black, b, blackScore), white: after(white, w, 1 - blackScore) };
}
