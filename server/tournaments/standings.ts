import type { StandingRow } from '../../shared/protocol/index.js';
import { arenaScore, type GameScore } from './arena-score.js';
import type { Entrant, Pairing, Tournament } from './model.js';

interface Tally {
  readonly entrant: Entrant;
  points: number;
  wins: number;
  draws: number;
  losses: number;
  /** Points from byes and forfeits won (no game): counted, but not as wins. */
  unplayed: number;
  /** Each game played (not byes or forfeits): the opponent and the score, in order. */
  readonly games: { opponent: string; score: GameScore }[];
  /** Games and forfeits, in order, for an arena's streaks. */
  readonly sequence: GameScore[];
}

const scoreOf = (p: Pairing, side: 'black' | 'white'): GameScore => (p.winner === 'draw' ? 'draw' : p.winner === side ? 'win' : 'loss');

/**
 * The standings from the entrants and the finished pairings. Swiss and round robin: 1 a win, ½ a
 * draw, 1 a bye or a forfeit won; ranked by points, then Buchholz (the opponents' points), then
 * Sonneborn–Berger (the points of those beaten, half those drawn), then rating; wins, draws and
 * losses count games played, not byes and forfeits. Arena: Lichess's
 * points (`arenaScore`), then performance. Performance: the average opponent rating plus 400 ×
 * (wins − losses) / games, over games played.
 */
export function standings(t: Pick<Tournament, 'format' | 'entrants' | 'pairings'>): StandingRow[] {
  const tallies = new Map<string, Tally>(t.entrants.map((e) => [e.id, { entrant: e, points: 0, wins: 0, draws: 0, losses: 0, unplayed: 0, games: [], sequence: [] }]));
  const finished = t.pairings.filter((p) => p.winner !== null).sort((a, b) => a.round - b.round || a.table - b.table);
  for (const p of finished) {
    for (const side of ['black', 'white'] as const) {
      const me = tallies.get(side === 'black' ? p.black : (p.white ?? ''));
      if (!me) continue;
      const score = scoreOf(p, side);
      const opponent = side === 'black' ? p.white : p.black;
      me.sequence.push(score);
      if (p.gameId === null) me.unplayed += score === 'win' ? 1 : score === 'draw' ? 0.5 : 0;
      else if (score === 'win') me.wins++;
      else if (score === 'draw') me.draws++;
      else me.losses++;
      if (opponent !== null && p.gameId !== null) me.games.push({ opponent, score });
    }
  }
  const arena = t.format === 'arena';
  const streaks = new Map<string, number>();
  for (const tally of tallies.values()) {
    if (arena) {
      const score = arenaScore(tally.sequence);
      tally.points = score.points;
      streaks.set(tally.entrant.id, score.streak);
    } else tally.points = tally.wins + tally.draws / 2 + tally.unplayed;
  }
  const pointsOf = (id: string): number => tallies.get(id)?.points ?? 0;
  const rating = (id: string): number => tallies.get(id)?.entrant.rating ?? 1500;
  const rows = [...tallies.values()].map((tally) => {
    const played = tally.games.length;
    const net = tally.games.reduce((sum, g) => sum + (g.score === 'win' ? 1 : g.score === 'loss' ? -1 : 0), 0);
    const average = played === 0 ? 0 : tally.games.reduce((sum, g) => sum + rating(g.opponent), 0) / played;
    return {
      rank: 0,
      id: tally.entrant.id,
      name: tally.entrant.name,
      kind: tally.entrant.kind,
      rating: tally.entrant.rating,
      points: tally.points,
      games: played,
      wins: tally.wins,
      draws: tally.draws,
      losses: tally.losses,
      buchholz: arena ? 0 : tally.games.reduce((sum, g) => sum + pointsOf(g.opponent), 0),
      sonnebornBerger: arena ? 0 : tally.games.reduce((sum, g) => sum + (g.score === 'win' ? pointsOf(g.opponent) : g.score === 'draw' ? pointsOf(g.opponent) / 2 : 0), 0),
      performance: played === 0 ? null : Math.round(average + (400 * net) / played),
      withdrawn: tally.entrant.withdrawn,
      streak: streaks.get(tally.entrant.id) ?? 0,
    } satisfies StandingRow;
  });
  rows.sort((a, b) => b.points - a.points || b.buchholz - a.buchholz || b.sonnebornBerger - a.sonnebornBerger || (b.performance ?? 0) - (a.performance ?? 0) || b.rating - a.rating || (a.id < b.id ? -1 : 1));
  return rows.map((row, i) => ({ ...row, rank: i + 1 }));
}
