import type { TournamentDelta } from '../../shared/protocol/index.js';
import type { Tournament } from './model.js';
import { standings } from './standings.js';

const key = (p: { round: number; table: number }): string => `${p.round}/${p.table}`;

/** What `after` changed from `before`: the standings rows that differ and the pairings new or ended. */
export function deltaOf(before: Tournament, after: Tournament): TournamentDelta {
  const was = new Map(standings(before).map((row) => [row.id, JSON.stringify(row)]));
  const had = new Map(before.pairings.map((p) => [key(p), JSON.stringify(p)]));
  return {
    id: after.id,
    version: after.version,
    status: after.status,
    round: after.round,
    standings: standings(after).filter((row) => was.get(row.id) !== JSON.stringify(row)),
    pairings: after.pairings.filter((p) => had.get(key(p)) !== JSON.stringify(p)),
  };
}
