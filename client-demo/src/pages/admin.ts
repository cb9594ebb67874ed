import './admin.css';
import type { AdminSummary, GameView, StoreEmptied } from '../../../shared/protocol/index.js';
import { GAME_IDS } from '../../../shared/rules.js';
import { AdminConnection } from '../admin-connection.js';
import { GameScreen } from '../components/game-screen.js';
import { LiveGames } from '../components/live-games.js';
import { adminTournaments } from '../components/admin-tournaments.js';
import { Disposer, h, replace, toast } from '../dom.js';
import { CLIENT_GAMES } from '../games/index.js';
import { getJson } from '../net.js';
import { link, navigate } from '../router.js';

let admin: AdminConnection | null = null;

function connectAdmin(): AdminConnection {
  if (admin && !admin.authError) return admin;
  admin?.close();
  admin = new AdminConnection();
  return admin;
}

/** `/admin`: the live-games table, or one game large (`?watch=<id>`); asks for the token when there is no admin session. */
export function adminPage(root: HTMLElement, watch: string | null): () => void {
  const disposer = new Disposer();
  const page = h('div', { class: 'page page-admin' });
  replace(root, page);
  document.title = 'Admin — Boardroom';

  const conn = connectAdmin();
  let mode: 'embedded' | 'redis' | null = null;
  void getJson<{ mode: 'embedded' | 'redis' }>('/health')
    .then((r) => {
      mode = r.mode;
      renderHeader();
    })
    .catch(() => undefined);

  const header = h('div', { class: 'admin-header' });
  const body = h('div', { class: 'admin-body' });
  replace(page, header, body);

  const renderHeader = (): void => {
    const summary = conn.page?.summary ?? null;
    replace(
      header,
      h(
        'div',
        { class: 'admin-title' },
        h('h1', null, 'Admin console'),
        h('span', { class: `pill conn conn-${conn.state}${conn.state === 'online' ? ' pill-live' : ''}` }, conn.state === 'online' ? (summary ? `${summary.live.toLocaleString('en-US')} live` : 'online') : conn.state === 'connecting' ? 'connecting…' : 'reconnecting…'),
      ),
      h(
        'div',
        { class: 'admin-tools' },
        mode === 'embedded'
          ? h('span', { class: 'muted small', title: 'The embedded server has no BullMQ queue' }, 'no queue dashboard (embedded)')
          : h('a', { class: 'btn small', href: '/admin/queues', target: '_blank', rel: 'noopener', 'data-testid': 'dashboard-link' }, 'Queue dashboard ↗'),
        h(
          'button',
          {
            class: 'btn small ghost',
            type: 'button',
            'data-testid': 'admin-signout',
            onclick: () => {
              admin?.close();
              admin = null;
              void fetch('/admin/api/signout', { method: 'POST' }).finally(() => navigate('/admin'));
            },
          },
          'Sign out',
        ),
      ),
      conn.storeEmptied ? storeEmptiedBanner(conn.storeEmptied) : null,
      summary ? summaryLine(summary) : null,
    );
  };

  // ——— one game large ———
  const showLarge = async (id: string): Promise<void> => {
    replace(body, h('div', { class: 'loading' }, h('span', { class: 'spinner' }), 'Loading the game…'));
    const opened = await conn.open(id);
    if (disposer.disposed) return void conn.closeGame(id);
    disposer.add(() => conn.closeGame(id));
    if (typeof opened === 'string') {
      replace(body, h('div', { class: 'empty-state' }, h('h1', { class: 'page-title' }, 'No such game'), h('p', { class: 'muted' }, opened), link('/admin', 'Back to the table', 'btn primary')));
      return;
    }
    const screen = new GameScreen(
      id,
      opened.view.game,
      {
        adjudicate: async (winner, reason) => {
          const ack = await conn.ask<{ view: GameView }>('admin:end', { gameId: id, winner, reason });
          if (!ack.ok) return void toast(ack.error.message, 'error');
          toast('Game ended.');
          screen.setView(ack.view);
        },
        back: { label: 'All games', go: () => navigate('/admin') },
      },
      'admin',
    );
    screen.setView(opened.view);
    if (opened.thinking) screen.setThinking(opened.thinking);
    screen.setConnection(conn.state === 'online' ? 'online' : 'reconnecting');
    replace(body, screen.el);
    disposer.add(() => screen.destroy());
    disposer.add(
      conn.on((news) => {
        if (news.view?.id === id) screen.setView(news.view);
        if (news.thinking?.gameId === id) screen.setThinking(news.thinking);
        if (news.state) screen.setConnection(conn.state === 'online' ? 'online' : 'reconnecting');
      }),
    );
  };

  disposer.add(
    conn.on((news) => {
      if (conn.authError) {
        const message = conn.authError.startsWith('Sign in') ? null : conn.authError;
        admin?.close();
        admin = null;
        disposer.dispose();
        loginForm(page, message);
        return;
      }
      if (news.page || news.state || news.storeEmptied) renderHeader();
    }),
  );

  renderHeader();
  if (watch) void showLarge(watch);
  else {
    const table = new LiveGames(conn);
    disposer.add(() => table.destroy());
    replace(body, adminTournaments(disposer), table.el);
  }
  return () => disposer.dispose();
}

/** Stays in the header: what was lost is not something an admin should miss, nor see fade. */
function storeEmptiedBanner(notice: StoreEmptied): HTMLElement {
  return h('div', { class: 'admin-alert', role: 'alert', 'data-testid': 'store-emptied' }, h('b', null, `Store emptied at ${new Date(notice.at).toLocaleTimeString('en-US')}. `), notice.message);
}

/** Figures over every live game: by game, by kinds of seats, reconnects awaited, moves/s, the queue, connections. */
function summaryLine(summary: AdminSummary): HTMLElement {
  const chip = (testid: string, value: number | string, label: string, cls = '') => h('span', { class: `qchip ${cls}`, 'data-testid': testid }, h('b', null, typeof value === 'number' ? value.toLocaleString('en-US') : value), label);
  const q = summary.queue;
  return h(
    'div',
    { class: 'admin-summary', 'data-testid': 'summary' },
    chip('summary-live', summary.live, 'live'),
    ...GAME_IDS.map((g) => chip(`summary-${g}`, summary.byGame[g] ?? 0, CLIENT_GAMES[g].title)),
    ...Object.entries(summary.byKind)
      .sort((a, b) => b[1] - a[1])
      .map(([kinds, n]) => chip(`summary-kind-${kinds}`, n, kinds.replace('-', ' · '))),
    chip('summary-away', summary.away, 'awaiting a reconnect', summary.away > 0 ? 'q-warn' : ''),
    chip('summary-moves', String(summary.movesPerSecond), 'moves/s'),
    ...['waiting', 'active', 'stalled', 'failed'].filter((k) => q[k] !== undefined).map((k) => chip(`queue-${k}`, q[k]!, `queue ${k}`, `q-${k}`)),
    q['wait-p50-ms'] !== undefined ? chip('queue-wait', `${q['wait-p50-ms']}/${q['wait-p95-ms']} ms`, 'queue wait p50/p95') : null,
    chip('summary-connections', summary.connections, 'connections'),
  );
}

function loginForm(page: HTMLElement, error: string | null): void {
  const input = h('input', { type: 'password', placeholder: 'ADMIN_TOKEN', autocomplete: 'current-password', required: true, 'data-testid': 'admin-token', 'aria-label': 'admin token' });
  const form = h(
    'form',
    { class: 'card login', 'data-testid': 'admin-login' },
    h('h1', { class: 'page-title' }, 'Admin console'),
    h('p', { class: 'muted' }, 'Enter the server’s admin token. It opens an eight-hour session; the page does not keep the token.'),
    error ? h('p', { class: 'error', 'data-testid': 'admin-error' }, error) : null,
    input,
    h('button', { class: 'btn primary wide', type: 'submit' }, 'Open console'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const token = input.value.trim();
    if (!token) return;
    void fetch('/admin/api/session', { method: 'POST', headers: { authorization: `Bearer ${token}` } }).then(async (res) => {
      if (res.ok) return navigate('/admin', true);
      const body = (await res.json().catch(() => ({}))) as { error?: { message?: string } };
      loginForm(page, res.status === 401 ? 'That admin token is wrong.' : body.error?.message ?? `HTTP ${res.status}`);
    });
  });
  replace(page, h('div', { class: 'login-wrap' }, form));
  input.focus();
}
