import type { Color } from '../../shared/color.js';
import { pairArena } from './arena.js';
import { bergerRounds } from './berger.js';
import { tableGameId, type Entrant, type Pairing, type Tournament } from './model.js';
import { standings } from './standings.js';
import { pairSwiss } from './swiss.js';

/**
 * What a tournament does next, as pure functions of its document: each returns the next version
 * (version + 1) or null when there is nothing to do. The runner writes it with a version check.
 */

function next(t: Tournament, changes: Partial<Tournament>): Tournament {
  return { ...t, ...changes, version: t.version + 1 };
}

/** It starts: entries close for Swiss and round robin; an arena's clock runs. Fewer than two entrants: it ends unplayed. */
export function start(t: Tournament, now: number): Tournament {
  const present = t.entrants.filter((e) => !e.withdrawn);
  if (present.length < 2) return next(t, { status: 'finished', startedAt: now, finishedAt: now });
  // A round robin's Berger numbers follow the order of entry; withdrawn entrants leave before it starts.
  const entrants = t.format === 'round-robin' ? present : t.entrants;
  return next(t, { status: 'running', startedAt: now, entrants, endsAt: t.format === 'arena' ? now + t.minutes * 60_000 : null });
}

export function finish(t: Tournament, now: number): Tournament {
  return next(t, { status: 'finished', finishedAt: now });
}

const unfinished = (t: Tournament): Pairing[] => t.pairings.filter((p) => p.winner === null);

/** The pairings whose games have ended, with their results. */
export function withResults(t: Tournament, results: ReadonlyMap<string, { winner: 'black' | 'white' | 'draw'; reason: string }>): Tournament | null {
  if (results.size === 0) return null;
  return next(t, { pairings: t.pairings.map((p) => (p.gameId !== null && p.winner === null && results.has(p.gameId) ? { ...p, ...results.get(p.gameId)! } : p)) });
}

function colourHistory(t: Tournament, id: string): Color[] {
  return t.pairings.filter((p) => p.gameId !== null && (p.black === id || p.white === id)).sort((a, b) => a.round - b.round).map((p) => (p.black === id ? 'black' : 'white'));
}

const byeOf = (round: number, table: number, id: string): Pairing => ({ round, table, black: id, white: null, gameId: null, winner: 'black', reason: 'bye' });

/** The next Swiss or round-robin round, once every game of the current one has ended; null otherwise or after the last. */
export function pairRound(t: Tournament): Tournament | null {
  if (t.status !== 'running' || t.format === 'arena' || unfinished(t).length > 0) return null;
  const round = t.round + 1;
  const pairings = t.format === 'swiss' ? swissRound(t, round) : roundRobinRound(t, round);
  return pairings ? next(t, { round, pairings: [...t.pairings, ...pairings] }) : null;
}

function swissRound(t: Tournament, round: number): Pairing[] | null {
  if (round > t.rounds) return null;
  const points = new Map(standings(t).map((row) => [row.id, row.points]));
  const players = t.entrants
    .filter((e) => !e.withdrawn)
    .map((e) => ({
      id: e.id,
      points: points.get(e.id) ?? 0,
      rating: e.rating,
      colours: colourHistory(t, e.id),
      opponents: new Set(t.pairings.filter((p) => p.black === e.id || p.white === e.id).map((p) => (p.black === e.id ? p.white : p.black)).filter((o): o is string => o !== null)),
      hadBye: t.pairings.some((p) => p.black === e.id && p.reason === 'bye'),
    }));
  const paired = pairSwiss(players, round);
  if (!paired) return null;
  const pairings = paired.games.map(([black, white], i): Pairing => ({ round, table: i + 1, black, white, gameId: tableGameId(t, round, i + 1), winner: null, reason: null }));
  if (paired.bye) pairings.push(byeOf(round, pairings.length + 1, paired.bye));
  return pairings;
}

function roundRobinRound(t: Tournament, round: number): Pairing[] | null {
  const table = bergerRounds(t.entrants.length, t.rounds)[round - 1];
  if (!table) return null;
  const entrant = (n: number): Entrant => t.entrants[n - 1]!;
  return table.map(([first, second], i): Pairing => {
    const at = i + 1;
    if (second === null) return byeOf(round, at, entrant(first).id);
    const [black, white] = [entrant(first), entrant(second)];
    // A withdrawn entrant's remaining games are forfeits, won by whoever is still there.
    if (black.withdrawn || white.withdrawn) {
      const winner = black.withdrawn && white.withdrawn ? 'draw' : black.withdrawn ? 'white' : 'black';
      return { round, table: at, black: black.id, white: white.id, gameId: null, winner, reason: 'forfeit' };
    }
    return { round, table: at, black: black.id, white: white.id, gameId: tableGameId(t, round, at), winner: null, reason: null };
  });
}

/** An arena's next games among the entrants not playing now; null when fewer than two are free or the time is up. */
export function pairWave(t: Tournament, now: number): Tournament | null {
  if (t.status !== 'running' || t.format !== 'arena' || (t.endsAt !== null && now >= t.endsAt)) return null;
  const busy = new Set(unfinished(t).flatMap((p) => [p.black, p.white]));
  const rows = new Map(standings(t).map((row) => [row.id, row]));
  const lastOpponent = (id: string): string | null => {
    const last = t.pairings.filter((p) => p.black === id || p.white === id).at(-1);
    return last ? (last.black === id ? last.white : last.black) : null;
  };
  const free = t.entrants.filter((e) => !e.withdrawn && !busy.has(e.id)).map((e) => ({ id: e.id, points: rows.get(e.id)?.points ?? 0, rating: e.rating, colours: colourHistory(t, e.id), lastOpponent: lastOpponent(e.id) }));
  if (free.length < 2) return null;
  const round = t.round + 1;
  const games = pairArena(free).map(([black, white], i): Pairing => ({ round, table: i + 1, black, white, gameId: tableGameId(t, round, i + 1), winner: null, reason: null }));
  return games.length === 0 ? null : next(t, { round, pairings: [...t.pairings, ...games] });
}

/** Whether the tournament has nothing left to play. */
export function isOver(t: Tournament, now: number): boolean {
  if (t.status !== 'running' || unfinished(t).length > 0) return false;
  if (t.format === 'arena') return t.endsAt !== null && now >= t.endsAt;
  return pairRound(t) === null;
}
