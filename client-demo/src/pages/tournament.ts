import './tournament.css';
import type { PairingView, StandingRow, TournamentDelta, TournamentView } from '../../../shared/protocol/index.js';
import { account } from '../account.js';
import { Disposer, h, replace, toast } from '../dom.js';
import { CLIENT_GAMES } from '../games/index.js';
import { net } from '../net.js';
import { link, navigate, playerLink } from '../router.js';
import { keepSeat } from '../storage.js';

const RESULT = { black: ['1', '0'], white: ['0', '1'], draw: ['½', '½'] } as const;

/** Applies a delta: rows and pairings replaced by key, the rest kept. */
function applyDelta(t: TournamentView, delta: TournamentDelta): TournamentView {
  if (delta.version <= t.version) return t;
  const rows = new Map(t.standings.map((r) => [r.id, r]));
  for (const row of delta.standings) rows.set(row.id, row);
  const pairings = new Map(t.pairings.map((p) => [`${p.round}/${p.table}`, p]));
  for (const p of delta.pairings) pairings.set(`${p.round}/${p.table}`, p);
  return { ...t, version: delta.version, status: delta.status, round: delta.round, standings: [...rows.values()].sort((a, b) => a.rank - b.rank), pairings: [...pairings.values()] };
}

function standingsTable(t: TournamentView, me: string | null): HTMLElement {
  const arena = t.format === 'arena';
  const heads = ['#', 'Name', 'Kind', 'Rating', 'Points', 'Games', ...(arena ? ['Streak'] : ['Buchholz', 'S-B']), 'Perf.'];
  return h(
    'table',
    { class: 'standings', 'data-testid': 'standings' },
    h('thead', null, h('tr', null, ...heads.map((t, i) => h('th', { class: i >= 3 ? 'figure' : '' }, t)))),
    h(
      'tbody',
      null,
      ...t.standings.map((r: StandingRow) =>
        h(
          'tr',
          { class: [r.id === me ? 'me' : '', r.withdrawn ? 'withdrawn' : ''].join(' '), 'data-testid': 'standing-row', 'data-id': r.id, 'data-points': r.points },
          h('td', null, String(r.rank)),
          h('td', null, r.kind === 'bot' ? r.name : playerLink(r.name)),
          h('td', null, h('span', { class: `badge badge-${r.kind === 'person' ? 'you' : r.kind}` }, r.kind)),
          h('td', { class: 'figure' }, String(r.rating)),
          h('td', { class: 'figure', 'data-testid': 'standing-points' }, String(r.points)),
          h('td', { class: 'figure' }, String(r.games)),
          ...(arena ? [h('td', { class: 'figure' }, r.streak >= 2 ? `🔥 ${r.streak}` : String(r.streak))] : [h('td', { class: 'figure' }, String(r.buchholz)), h('td', { class: 'figure' }, String(r.sonnebornBerger))]),
          h('td', { class: 'figure' }, r.performance === null ? '–' : String(r.performance)),
        ),
      ),
    ),
  );
}

function nameOf(t: TournamentView, id: string | null): string {
  return id === null ? 'bye' : (t.standings.find((r) => r.id === id)?.name ?? id);
}

function pairingsTable(t: TournamentView): HTMLElement {
  const current = t.format === 'arena' ? t.pairings.filter((p) => p.winner === null || p.round >= t.round - 2) : t.pairings.filter((p) => p.round === t.round);
  return h(
    'table',
    { class: 'pairings', 'data-testid': 'pairings' },
    h('thead', null, h('tr', null, h('th', null, 'Rd'), h('th', null, 'Black'), h('th', null, 'White'), h('th', null, 'Result'), h('th', null, 'Game'))),
    h(
      'tbody',
      null,
      ...current.map((p: PairingView) =>
        h(
          'tr',
          { 'data-testid': 'pairing-row', 'data-game': p.gameId ?? '' },
          h('td', null, String(p.round)),
          h('td', null, nameOf(t, p.black)),
          h('td', null, nameOf(t, p.white)),
          h('td', null, p.winner === null ? 'playing' : p.white === null ? 'bye' : RESULT[p.winner].join('–')),
          h('td', null, p.gameId ? [link(`/game/${p.gameId}`, p.winner === null ? 'watch' : 'view', '', 'pairing-watch'), ' ', h('a', { href: `/api/games/${p.gameId}`, download: `${p.gameId}.json` }, 'record')] : ''),
        ),
      ),
    ),
  );
}

/** Rows and columns of entrants; each cell the row's results against the column, in order. */
function crosstable(t: TournamentView): HTMLElement {
  const ids = t.standings.map((r) => r.id);
  const cell = (row: string, column: string): string => {
    if (row === column) return '';
    return t.pairings
      .filter((p) => p.winner !== null && ((p.black === row && p.white === column) || (p.white === row && p.black === column)))
      .map((p) => RESULT[p.winner!][p.black === row ? 0 : 1])
      .join(' ');
  };
  return h(
    'table',
    { class: 'crosstable', 'data-testid': 'crosstable' },
    h('thead', null, h('tr', null, h('th', null, ''), ...ids.map((_, i) => h('th', null, String(i + 1))))),
    h('tbody', null, ...ids.map((row, i) => h('tr', null, h('th', null, `${i + 1}. ${nameOf(t, row)}`), ...ids.map((column) => h('td', { class: row === column ? 'self' : '', 'data-testid': 'cross-cell' }, cell(row, column)))))),
  );
}

/** A tournament: standings, this round's pairings, the crosstable, join and withdraw, downloads; live by deltas. */
export function tournamentPage(root: HTMLElement, id: string): () => void {
  const disposer = new Disposer();
  const conn = net();
  let view: TournamentView | undefined;
  let me: string | null = null;
  const body = h('div', { class: 'page page-tournament', 'data-testid': 'tournament-page' }, h('p', { class: 'muted' }, 'Loading…'));
  replace(root, body);

  const mine = (): PairingView | undefined => (me === null ? undefined : view?.pairings.find((p) => p.winner === null && p.gameId !== null && (p.black === me || p.white === me)));
  const play = async (): Promise<void> => {
    const ack = await conn.ask('tournament:seat', { tournamentId: id });
    if (!ack.ok) return void toast(ack.error.message, 'error');
    keepSeat(ack.seat.gameId, { token: ack.seat.token, color: ack.seat.color });
    navigate(`/game/${ack.seat.gameId}`);
  };
  const act = async (event: 'tournament:join' | 'tournament:withdraw' | 'tournament:start'): Promise<void> => {
    const ack = await conn.ask(event, { tournamentId: id });
    if (!ack.ok) toast(ack.error.message, 'error');
  };
  const render = (): void => {
    const t = view;
    if (!t) return;
    const entered = me !== null && t.standings.some((r) => r.id === me && !r.withdrawn);
    const open = t.status === 'upcoming' || (t.status === 'running' && t.format === 'arena');
    const game = mine();
    const actions = h(
      'div',
      { class: 'tournament-actions' },
      me === null ? link(`/account?next=${encodeURIComponent(location.pathname)}`, 'Sign in to join', 'btn', 'tournament-sign-in') : null,
      me !== null && !entered && open ? h('button', { type: 'button', class: 'btn primary', 'data-testid': 'tournament-join', onclick: () => void act('tournament:join') }, 'Join') : null,
      entered && t.status !== 'finished' ? h('button', { type: 'button', class: 'btn ghost-danger', 'data-testid': 'tournament-withdraw', onclick: () => void act('tournament:withdraw') }, 'Withdraw') : null,
      game ? h('button', { type: 'button', class: 'btn primary', 'data-testid': 'tournament-play', onclick: () => void play() }, 'Play your game') : null,
      me !== null && t.status === 'upcoming' && t.createdBy.toLowerCase() === `account:${me.slice('person:'.length)}` ? h('button', { type: 'button', class: 'btn', 'data-testid': 'tournament-start', onclick: () => void act('tournament:start') }, 'Start now') : null,
    );
    const where = t.status === 'running' ? (t.format === 'arena' ? `running, ends ${new Date(t.endsAt ?? 0).toLocaleTimeString()}` : `round ${t.round} of ${t.rounds}`) : t.status;
    replace(
      body,
      h('div', { class: 'tournament-head' }, h('h2', { 'data-testid': 'tournament-name' }, t.name), h('span', { class: 'muted', 'data-testid': 'tournament-status' }, `${CLIENT_GAMES[t.game].title} · ${t.format} · ${t.rated ? 'rated' : 'casual'} · ${where}`)),
      actions,
      h(
        'div',
        { class: 'tournament-grid' },
        h('section', { class: 'card' }, h('h3', null, 'Standings'), standingsTable(t, me)),
        h('section', { class: 'card' }, h('h3', null, t.format === 'arena' ? 'Recent games' : `Round ${t.round}`), pairingsTable(t)),
      ),
      t.format === 'arena' ? null : h('section', { class: 'card' }, h('h3', null, 'Crosstable'), crosstable(t)),
      h(
        'p',
        { class: 'downloads' },
        h('a', { href: `/api/tournaments/${t.id}/standings?format=csv`, download: '', 'data-testid': 'download-csv' }, 'Standings (CSV)'),
        h('a', { href: `/api/tournaments/${t.id}/standings`, download: '' }, 'Standings (JSON)'),
        h('a', { href: `/api/tournaments/${t.id}/games`, download: '' }, 'Every game (JSON)'),
      ),
    );
    document.title = `${t.name} — Boardroom`;
  };
  const load = async (): Promise<void> => {
    const ack = await conn.ask('tournament:follow', { tournamentId: id });
    if (disposer.disposed) return;
    if (!ack.ok) return replace(body, h('div', { class: 'empty-state' }, h('h2', null, 'No such tournament'), link('/', 'Back to the lobby', 'btn primary')));
    view = ack.tournament;
    render();
  };
  disposer.add(conn.on('tournament:delta', (delta) => {
    if (!view || delta.id !== id) return;
    view = applyDelta(view, delta);
    render();
  }));
  disposer.add(conn.on('tournament:paired', (paired) => {
    if (paired.tournamentId === id) toast(`Round ${paired.round}: you play ${paired.opponent ?? 'a bye'}`);
  }));
  disposer.add(conn.onReconnect(() => void load()));
  void account().then((a) => {
    me = a ? `person:${a.name.toLowerCase()}` : null;
    void load();
  });
  return () => {
    disposer.dispose();
    void conn.ask('tournament:unfollow', { tournamentId: id });
  };
}
