import { io, type Socket } from 'socket.io-client';
import type { GameView, RoomSummary, ThinkingView } from '../../../shared/protocol/index.js';
import { BoardView } from '../boards/board-view.js';
import { GameScreen } from '../components/game-screen.js';
import { Disposer, h, replace, toast } from '../dom.js';
import { capital, compact, reasonText, scoreText, seatName, timeControlText } from '../format.js';
import { GAME_TITLES, parsePosition, snapshot } from '../model.js';
import { askOn, getJson, type ConnectionState } from '../net.js';
import { link, navigate } from '../router.js';

/**
 * The admin namespace, kept across page changes: every live game (and the ones that just ended),
 * the bots' latest thinking, and the queue's counts.
 */
class AdminConnection {
  readonly socket: Socket;
  readonly games = new Map<string, GameView>();
  readonly thinking = new Map<string, ThinkingView>();
  readonly endedAt = new Map<string, number>();
  queue: Record<string, number> | null = null;
  state: ConnectionState = 'connecting';
  authError: string | null = null;
  private readonly listeners = new Set<(what: { game?: string; thinking?: string; list?: boolean; queue?: boolean; state?: boolean }) => void>();
  private refreshTimer: number | null = null;
  private queueTimer: number;

  /** Authenticated by the admin session cookie (the token itself is never kept by the page). */
  constructor() {
    this.socket = io('/admin', { transports: ['websocket', 'polling'], reconnectionDelay: 500, reconnectionDelayMax: 4000 });
    this.socket.on('connect', () => {
      this.setState('online');
      void this.refresh();
      void this.pollQueue();
    });
    this.socket.on('disconnect', () => this.setState('reconnecting'));
    this.socket.on('connect_error', (error: Error & { data?: { code?: string; message?: string } }) => {
      if (error.data?.code?.startsWith('auth/')) {
        this.authError = error.data.message ?? error.message;
        this.socket.disconnect();
      }
      this.setState('reconnecting');
    });
    const upsert = (view: GameView) => {
      const known = this.games.get(view.id);
      if (known && view.ply < known.ply) return;
      if (!known && view.status !== 'live') return;
      this.games.set(view.id, view);
      if (view.status === 'finished' && !this.endedAt.has(view.id)) {
        this.endedAt.set(view.id, Date.now());
        this.thinking.delete(view.id);
      }
      this.emit({ game: view.id, list: !known });
    };
    this.socket.on('moved', (e: { view: GameView }) => upsert(e.view));
    this.socket.on('state', (v: GameView) => upsert(v));
    this.socket.on('ended', (e: { view: GameView }) => upsert(e.view));
    this.socket.on('thinking', (t: ThinkingView) => {
      this.thinking.set(t.gameId, t);
      this.emit({ thinking: t.gameId });
    });
    this.socket.on('rooms:changed', (r: RoomSummary) => {
      if (r.status === 'live' && !this.games.has(r.id)) this.refreshSoon();
    });
    this.queueTimer = window.setInterval(() => void this.pollQueue(), 2000);
  }

  close(): void {
    window.clearInterval(this.queueTimer);
    this.socket.close();
  }

  on(fn: (what: { game?: string; thinking?: string; list?: boolean; queue?: boolean; state?: boolean }) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(what: { game?: string; thinking?: string; list?: boolean; queue?: boolean; state?: boolean }): void {
    for (const fn of this.listeners) fn(what);
  }

  private setState(state: ConnectionState): void {
    this.state = state;
    this.emit({ state: true });
  }

  private refreshSoon(): void {
    if (this.refreshTimer !== null) return;
    this.refreshTimer = window.setTimeout(() => {
      this.refreshTimer = null;
      void this.refresh();
    }, 250);
  }

  async refresh(): Promise<void> {
    const ack = await askOn<{ games: GameView[]; thinking: ThinkingView[] }>(this.socket, 'admin:games', {});
    if (!ack.ok) return;
    const live = new Set(ack.games.map((g) => g.id));
    for (const [id, view] of this.games) if (!live.has(id) && view.status !== 'finished') this.games.delete(id);
    for (const view of ack.games) {
      const known = this.games.get(view.id);
      if (!known || known.ply <= view.ply) this.games.set(view.id, view);
    }
    for (const t of ack.thinking) this.thinking.set(t.gameId, t);
    this.emit({ list: true });
  }

  async pollQueue(): Promise<void> {
    if (!this.socket.connected) return;
    const ack = await askOn<{ queue: Record<string, number> }>(this.socket, 'admin:queue', {});
    if (!ack.ok) return;
    this.queue = ack.queue;
    this.emit({ queue: true });
  }

  /** Finished games leave the grid a while after they end. */
  prune(now = Date.now()): boolean {
    let changed = false;
    for (const [id, at] of this.endedAt) {
      if (now - at > 30_000) {
        this.endedAt.delete(id);
        this.games.delete(id);
        changed = true;
      }
    }
    return changed;
  }
}

let admin: AdminConnection | null = null;

function connectAdmin(): AdminConnection {
  if (admin && !admin.authError) return admin;
  admin?.close();
  admin = new AdminConnection();
  return admin;
}

/** `/admin`: the live grid, or one game large (`?watch=<id>`); asks for the token when there is no admin session. */
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
    const q = conn.queue;
    const chips = q
      ? Object.entries(q).map(([k, v]) => h('span', { class: `qchip q-${k}`, 'data-testid': `queue-${k}` }, h('b', null, compact(v)), k.replaceAll('-', ' ')))
      : [h('span', { class: 'muted' }, 'queue …')];
    const live = [...conn.games.values()].filter((g) => g.status === 'live').length;
    replace(
      header,
      h(
        'div',
        { class: 'admin-title' },
        h('h1', null, 'Admin console'),
        h('span', { class: `conn conn-${conn.state}` }, conn.state === 'online' ? `${live} live` : conn.state === 'connecting' ? 'connecting…' : 'reconnecting…'),
      ),
      h(
        'div',
        { class: 'admin-tools' },
        h('div', { class: 'queue', 'data-testid': 'queue' }, h('span', { class: 'muted' }, 'Bot queue'), ...chips),
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
    );
  };

  // ——— the grid ———
  const cards = new Map<string, { el: HTMLElement; board: BoardView; info: HTMLElement; think: HTMLElement }>();
  const grid = h('div', { class: 'admin-grid', 'data-testid': 'admin-grid' });

  const cardFor = (id: string) => {
    let card = cards.get(id);
    if (!card) {
      const view = conn.games.get(id)!;
      const board = new BoardView(view.game, { small: true });
      const info = h('div', { class: 'card-info' });
      const think = h('div', { class: 'card-think' });
      const el = h(
        'a',
        { class: 'game-card', href: `/admin?watch=${encodeURIComponent(id)}`, 'data-route': true, 'data-game-id': id, 'data-testid': 'game-card' },
        h('div', { class: 'card-board' }, board.el),
        info,
        think,
      );
      card = { el, board, info, think };
      cards.set(id, card);
    }
    return card;
  };

  const updateCard = (id: string): void => {
    const view = conn.games.get(id);
    if (!view) return;
    const card = cardFor(id);
    const position = parsePosition(view.game, view.position, view.options);
    const t = conn.thinking.get(id);
    const best = t && t.ply === view.ply ? (t.pv[0] ?? null) : null;
    card.board.update({ snap: snapshot(view.game, view.options, position, view.moves), playable: false, orientation: view.game === 'minichess' ? 'white' : 'black', best });
    card.el.dataset.status = view.status;
    card.el.dataset.ply = String(view.ply);
    const first = view.game === 'minichess' ? 'white' : 'black';
    const second = first === 'white' ? 'black' : 'white';
    const who = (c: 'black' | 'white') => h('span', { class: `who-mini${view.status === 'live' && view.toMove === c ? ' to-move' : ''}` }, seatName(view.seats[c]));
    replace(
      card.info,
      h('div', { class: 'card-line' }, h('span', { class: `game-icon icon-${view.game}` }), h('b', null, GAME_TITLES[view.game]), h('span', { class: 'muted' }, ` · ply ${view.ply}`), view.status === 'finished' ? h('span', { class: 'pill pill-finished' }, 'ended') : h('span', { class: 'pill pill-live' }, 'live')),
      h('div', { class: 'card-line players' }, who(first), h('span', { class: 'vs' }, 'vs'), who(second)),
    );
    if (view.status === 'finished' && view.result) {
      replace(card.think, `${view.result.winner ? `${capital(view.result.winner)} won` : 'Draw'} · ${reasonText(view.result)}`);
    } else if (t) {
      replace(
        card.think,
        h('span', { class: `think-mini${t.ply === view.ply ? '' : ' stale'}`, 'data-testid': 'card-thinking' }, `${t.bot} d${t.depth} ${scoreText(t.score)} · `, h('code', null, t.pv.slice(0, 5).join(' '))),
      );
    } else {
      replace(card.think, h('span', { class: 'muted' }, timeControlText(view.clock.control)));
    }
  };

  const renderGrid = (): void => {
    const ids = [...conn.games.values()].sort((a, b) => (a.status === b.status ? b.createdAt - a.createdAt : a.status === 'live' ? -1 : 1)).map((v) => v.id);
    for (const id of [...cards.keys()]) if (!conn.games.has(id)) cards.delete(id);
    for (const id of ids) updateCard(id);
    if (ids.length === 0) {
      replace(grid, h('div', { class: 'empty-state small' }, h('h2', null, 'No live games'), h('p', { class: 'muted' }, conn.state === 'online' ? 'Games appear here the moment they start.' : 'Connecting…'), link('/', 'Open the lobby', 'btn')));
    } else replace(grid, ...ids.map((id) => cards.get(id)!.el));
  };

  // ——— one game large ———
  let screen: GameScreen | null = null;
  const showLarge = (id: string): void => {
    const view = conn.games.get(id);
    if (!view) {
      replace(
        body,
        h('div', { class: 'empty-state' }, h('h2', null, 'Not a live game'), h('p', { class: 'muted' }, `Room ${id} is not among the live games (it may have ended).`), link(`/replay/${id}`, 'Replay it', 'btn'), link('/admin', 'Back to the grid', 'btn primary')),
      );
      return;
    }
    screen = new GameScreen(
      id,
      view.game,
      {
        adjudicate: async (winner, reason) => {
          const ack = await askOn<{ view: GameView }>(conn.socket, 'admin:end', { gameId: id, winner, reason });
          if (!ack.ok) return void toast(ack.error.message, 'error');
          toast('Game ended.');
          screen?.setView(ack.view);
        },
        back: { label: 'All games', go: () => navigate('/admin') },
      },
      'admin',
    );
    screen.setView(view);
    const t = conn.thinking.get(id);
    if (t) screen.setThinking(t);
    screen.setConnection(conn.state === 'online' ? 'online' : 'reconnecting');
    replace(body, screen.el);
    disposer.add(() => screen?.destroy());
  };

  disposer.add(
    conn.on((what) => {
      if (conn.authError) {
        const message = conn.authError.startsWith('Sign in') ? null : conn.authError;
        admin?.close();
        admin = null;
        disposer.dispose();
        loginForm(page, message);
        return;
      }
      if (what.queue || what.state || what.list) renderHeader();
      if (watch) {
        if (what.game === watch && conn.games.get(watch)) screen?.setView(conn.games.get(watch)!);
        if (what.thinking === watch) screen?.setThinking(conn.thinking.get(watch)!);
        if (what.state) screen?.setConnection(conn.state === 'online' ? 'online' : 'reconnecting');
        if (what.list && !screen && conn.games.has(watch)) showLarge(watch);
        return;
      }
      if (what.list) renderGrid();
      else if (what.game) {
        if (cards.has(what.game)) updateCard(what.game);
        else renderGrid();
      } else if (what.thinking && cards.has(what.thinking)) updateCard(what.thinking);
    }),
  );
  disposer.interval(() => {
    if (conn.prune() && !watch) renderGrid();
  }, 5000);

  renderHeader();
  if (watch) {
    if (conn.games.has(watch)) showLarge(watch);
    else replace(body, h('div', { class: 'loading' }, h('span', { class: 'spinner' }), 'Loading the game…'));
    window.setTimeout(() => {
      if (!screen && conn.state === 'online' && !conn.games.has(watch)) showLarge(watch);
    }, 3000);
  } else {
    replace(body, grid);
    renderGrid();
  }
  return () => disposer.dispose();
}

function loginForm(page: HTMLElement, error: string | null): void {
  const input = h('input', { type: 'password', placeholder: 'ADMIN_TOKEN', autocomplete: 'current-password', required: true, 'data-testid': 'admin-token', 'aria-label': 'admin token' });
  const form = h(
    'form',
    { class: 'card login', 'data-testid': 'admin-login' },
    h('h2', null, 'Admin console'),
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
