import type { Color } from '../../shared/color.js';
import { allocate, clash, colourWish } from './colours.js';
import { heaviestPairs } from './matching.js';

export interface SwissPlayer {
  readonly id: string;
  readonly points: number;
  readonly rating: number;
  /** Colours of the games played, in order (a bye adds none). */
  readonly colours: readonly Color[];
  readonly opponents: ReadonlySet<string>;
  readonly hadBye: boolean;
}

/** A round's pairs: [black, white], and the bye (an odd count), if any. */
export interface SwissRound {
  readonly games: [string, string][];
  readonly bye: string | null;
}

// The criteria, heaviest first, as the weights of one maximum weighted matching: whoever can
// be paired is (the matching pairs the most), nobody meets twice (no edge), no absolute colour
// clash, then the smallest score differences, then the top half of each score group meeting the
// bottom half by rating, then fewer mild colour clashes.
const BASE = 1e13;
const ABSOLUTE_CLASH = 1e11;
const SCORE_GAP = 1e7;
const STRONG_CLASH = 1e5;
const RANK_GAP = 100;
const MILD_CLASH = 10;

/**
 * One Swiss round. Players are ranked by points, then rating; the bye goes to the lowest-ranked
 * player without one so far (it is a vertex of the matching, so the rest can still be paired).
 * Returns null when no pairing without a rematch exists.
 */
export function pairSwiss(players: readonly SwissPlayer[], roundNumber: number): SwissRound | null {
  const ranked = [...players].sort((a, b) => b.points - a.points || b.rating - a.rating || (a.id < b.id ? -1 : 1));
  const withBye = ranked.length % 2 === 1;
  const count = ranked.length + (withBye ? 1 : 0);
  const byeVertex = withBye ? ranked.length : -1;
  const wishes = ranked.map((p) => colourWish(p.colours));
  // Each player's place in its score group, for the top half against the bottom half.
  const groups = new Map<number, string[]>();
  for (const p of ranked) groups.set(p.points, [...(groups.get(p.points) ?? []), p.id]);
  const place = (p: SwissPlayer): { at: number; size: number } => {
    const group = groups.get(p.points)!;
    return { at: group.indexOf(p.id), size: group.length };
  };
  const weight = (a: number, b: number): number | null => {
    if (b === byeVertex) {
      const p = ranked[a]!;
      if (p.hadBye) return null;
      return BASE - (p.points * 2 * SCORE_GAP * 10) - (ranked.length - a) * RANK_GAP;
    }
    const [x, y] = [ranked[a]!, ranked[b]!];
    if (x.opponents.has(y.id)) return null;
    const clashing = clash(wishes[a]!, wishes[b]!);
    const gap = Math.abs(x.points - y.points) * 2;
    let w = BASE - gap * gap * SCORE_GAP;
    if (clashing === 3) w -= ABSOLUTE_CLASH;
    if (clashing === 2) w -= STRONG_CLASH;
    if (clashing === 1) w -= MILD_CLASH;
    if (gap === 0) {
      const [px, py] = [place(x), place(y)];
      w -= Math.abs(Math.abs(py.at - px.at) - Math.floor(px.size / 2)) * RANK_GAP;
    }
    return w;
  };
  const pairs = heaviestPairs(count, weight, true);
  if (pairs.length * 2 !== count) return null;
  let bye: string | null = null;
  const games: [string, string][] = [];
  pairs.sort(([a], [b]) => a - b);
  pairs.forEach(([a, b], table) => {
    if (b === byeVertex) return void (bye = ranked[a]!.id);
    const black = allocate(wishes[a]!, wishes[b]!, (table + roundNumber) % 2 === 1) === 'first' ? a : b;
    games.push([ranked[black]!.id, ranked[black === a ? b : a]!.id]);
  });
  return { games, bye };
}
