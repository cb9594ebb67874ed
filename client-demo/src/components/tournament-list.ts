import type { TournamentSummary } from '../../../shared/protocol/index.js';
import { h, replace, type Disposer } from '../dom.js';
import { CLIENT_GAMES } from '../games/index.js';
import { net } from '../net.js';
import { link } from '../router.js';

const FORMAT_LABEL = { swiss: 'Swiss', 'round-robin': 'Round robin', arena: 'Arena' } as const;

/** One line of a tournament: its name (a link to its page), game, format and where it stands. */
export function tournamentLine(t: TournamentSummary): HTMLElement {
  const when = t.status === 'upcoming' ? (t.startsAt ? `starts ${new Date(t.startsAt).toLocaleTimeString()}` : 'starts when its creator says') : t.status === 'running' ? (t.format === 'arena' ? `ends ${new Date(t.endsAt ?? 0).toLocaleTimeString()}` : `round ${t.round} of ${t.rounds}`) : 'finished';
  return h(
    'li',
    { class: 'tournament-line', 'data-testid': 'tournament-line', 'data-id': t.id, 'data-status': t.status },
    link(`/tournaments/${encodeURIComponent(t.id)}`, t.name, 'tournament-name', 'tournament-link'),
    h('span', { class: 'muted' }, ` ${CLIENT_GAMES[t.game].title} · ${FORMAT_LABEL[t.format]} · ${t.entrants} entrant${t.entrants === 1 ? '' : 's'} · ${when}`),
  );
}

/** The lobby's card of tournaments: running, upcoming and finished, kept current by `tournaments:changed`. */
export function tournamentListCard(disposer: Disposer): HTMLElement {
  const known = new Map<string, TournamentSummary>();
  const lists = { running: h('ul', { class: 'tournament-list' }), upcoming: h('ul', { class: 'tournament-list' }), finished: h('ul', { class: 'tournament-list' }) };
  const render = (): void => {
    for (const [status, list] of Object.entries(lists)) {
      const rows = [...known.values()].filter((t) => t.status === status);
      replace(list, rows.length === 0 ? h('li', { class: 'muted' }, 'None') : rows.map(tournamentLine));
    }
  };
  const load = async (): Promise<void> => {
    const ack = await net().ask('tournaments:list', { status: 'all' });
    if (!ack.ok) return;
    known.clear();
    for (const t of ack.tournaments) known.set(t.id, t);
    render();
  };
  disposer.add(net().on('tournaments:changed', (t) => void (known.set(t.id, t), render())));
  disposer.add(net().onReconnect(() => void load()));
  void load();
  return h(
    'section',
    { class: 'card tournaments-card', 'data-testid': 'tournaments-card' },
    h('h2', null, 'Tournaments'),
    h('h3', null, 'Running'),
    lists.running,
    h('h3', null, 'Upcoming'),
    lists.upcoming,
    h('h3', null, 'Finished'),
    lists.finished,
  );
}
