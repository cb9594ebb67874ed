import { allocate, colourWish } from './colours.js';
import { heaviestPairs } from './matching.js';
import type { Color } from '../../shared/color.js';

export interface ArenaPlayer {
  readonly id: string;
  readonly points: number;
  readonly rating: number;
  readonly colours: readonly Color[];
  /** Whom it played last: not again at once while anyone else is free. */
  readonly lastOpponent: string | null;
}

const BASE = 1e9;
const REMATCH = 1e7;
const POINT_GAP = 1e4;
const RATING_GAP = 1;

/**
 * An arena's next games among the entrants free now: as many as can be made, each nearest in
 * points (then rating), not the last opponent again while another is free. Returns [black, white].
 */
export function pairArena(free: readonly ArenaPlayer[]): [string, string][] {
  const players = [...free].sort((a, b) => b.points - a.points || b.rating - a.rating);
  const pairs = heaviestPairs(
    players.length,
    (a, b) => {
      const [x, y] = [players[a]!, players[b]!];
      const rematch = x.lastOpponent === y.id || y.lastOpponent === x.id;
      return BASE - (rematch ? REMATCH : 0) - Math.abs(x.points - y.points) * POINT_GAP - Math.min(Math.abs(x.rating - y.rating), 9999) * RATING_GAP;
    },
    true,
  );
  return pairs.map(([a, b], table) => {
    const [x, y] = [players[a]!, players[b]!];
    return allocate(colourWish(x.colours), colourWish(y.colours), table % 2 === 0) === 'first' ? [x.id, y.id] : [y.id, x.id];
  });
}
