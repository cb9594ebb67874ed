import type { TournamentSummary } from '../../../shared/protocol/index.js';
import { h, replace, type Disposer } from '../dom.js';
import { getJson } from '../net.js';
import { tournamentLine } from './tournament-list.js';

/** The admin console's list of running tournaments, read again every 5 s. */
export function adminTournaments(disposer: Disposer): HTMLElement {
  const list = h('ul', { class: 'tournament-list' });
  const load = async (): Promise<void> => {
    const { tournaments } = await getJson<{ tournaments: TournamentSummary[] }>('/api/tournaments?status=running').catch(() => ({ tournaments: [] as TournamentSummary[] }));
    replace(list, tournaments.length === 0 ? h('li', { class: 'muted' }, 'No tournament is running.') : tournaments.map(tournamentLine));
  };
  void load();
  disposer.interval(() => void load(), 5000);
  return h('section', { class: 'card tournaments-card', 'data-testid': 'admin-tournaments' }, h('h2', null, 'Running tournaments'), list);
}
