import type { GameId } from '../../shared/rules.js';
import type { GameStore } from '../store/store.js';
import type { RatingRecord } from '../ratings/rating.js';
import { ROSTER_RATINGS } from '../ratings/roster-ratings.js';

type RatingReader = Pick<GameStore, 'ratings' | 'leaderboard' | 'rank'>;

/** Roster bots the ladder measured that have not played a rated game here: they stand at their measured starts. */
async function unplayedRoster(store: RatingReader, game: GameId): Promise<RatingRecord[]> {
  const bots = Object.keys(ROSTER_RATINGS.ratings[game]).map((name) => ({ kind: 'bot' as const, name }));
  return (await store.ratings(game, bots)).filter((r) => r.version === 0);
}

/** The leaderboard's top `limit`: the rated players, and the measured roster bots not yet rated here, so a new server's is not empty. */
export async function leaderboard(store: RatingReader, game: GameId, limit: number): Promise<RatingRecord[]> {
  const [stored, unplayed] = await Promise.all([store.leaderboard(game, limit), unplayedRoster(store, game)]);
  return [...stored, ...unplayed].sort((a, b) => b.rating - a.rating).slice(0, limit);
}

/** A record's place on that leaderboard, 1 the top (0: not on it). */
export async function rankOn(store: RatingReader, record: RatingRecord): Promise<number> {
  if (record.version === 0) return (await leaderboard(store, record.game, 500)).findIndex((r) => r.kind === record.kind && r.name === record.name) + 1;
  const [place, unplayed] = await Promise.all([store.rank(record.game, record), unplayedRoster(store, record.game)]);
  return place === undefined ? 0 : place + unplayed.filter((r) => r.rating > record.rating).length;
}
