import { identityKey, rateGame, type Identity } from '../ratings/rating.js';
import type { GameEnd, GameStore, StoredGame } from '../store/store.js';
import { seatIdentity } from './game.js';

/**
 * A game that ends is written with what its end changes: each player's history, and for a rated
 * game both ratings, computed from the records read now and written only if they are still the
 * stored ones. The game's end is written once (its version), so the ratings change once.
 */
export async function withEnding(store: GameStore, before: StoredGame, after: StoredGame, now: number): Promise<{ next: StoredGame; end?: GameEnd }> {
  if (after.status !== 'finished' || before.status === 'finished' || after.result?.reason === 'declined' || after.result?.reason === 'aborted') return { next: after };
  const black = seatIdentity(after.seats.black);
  const white = seatIdentity(after.seats.white);
  const players = [black, white].filter((p): p is Identity => p !== null);
  // As on Lichess, a game aborted before both sides have moved is not rated.
  const rated = after.rated && before.status === 'live' && after.moves.length >= 2 && black && white && identityKey(black) !== identityKey(white);
  if (!rated || !after.result) return { next: after, end: { ratings: [], players } };
  const [b, w] = await store.ratings(after.game, [black, white]);
  const changed = rateGame(b!, w!, after.result.winner, now);
  const change = (old: typeof b, fresh: typeof b) => ({ before: old!.rating, after: fresh!.rating, rd: fresh!.rd });
  return {
    next: { ...after, ratingChange: { black: change(b, changed.black), white: change(w, changed.white) } },
    end: { ratings: [changed.black, changed.white], players, rated: { black: b!, white: w!, winner: after.result.winner } },
  };
}
