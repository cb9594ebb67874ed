import { ADMIN_SORTS, type AdminPage, type AdminQuery, type AdminRow, type AdminSeat, type GameView } from '../../../shared/protocol/index.js';
import { firstMover } from '../../../shared/games.js';
import { GAME_IDS } from '../../../shared/rules.js';
import type { AdminConnection } from '../admin-connection.js';
import { BoardView } from '../boards/board-view.js';
import { Disposer, h, replace } from '../dom.js';
import { ago, clockText } from '../format.js';
import { CLIENT_GAMES } from '../games/index.js';
import { parsePosition, snapshot } from '../model.js';
import { navigate } from '../router.js';

const PAGE_ROWS = 50;
const PREVIEW_DELAY_MS = 150;
/** Rows a held table shows at most (its own and the new ones added below). */
const HELD_ROWS_MAX = 2 * PAGE_ROWS;
const STATE_TEXT: Record<AdminRow['state'], string> = { playing: 'playing', away: 'waiting for a reconnect', thinking: 'bot to move' };
const SORT_TEXT: Record<(typeof ADMIN_SORTS)[number], string> = { started: 'started', ply: 'ply', game: 'game', moved: 'last move' };

interface RowEl {
  readonly tr: HTMLTableRowElement;
  readonly cells: HTMLTableCellElement[];
  last: string;
}

/**
 * The live games as a table the server filters, sorts and pages. While the pointer is over the
 * rows they keep their places (new games and new orders wait until it leaves); a row's board
 * shows beside the table while the pointer rests on it.
 */
export class LiveGames {
  readonly el: HTMLElement;
  private readonly disposer = new Disposer();
  private readonly query: { -readonly [K in keyof AdminQuery]?: AdminQuery[K] } = { sort: 'started', dir: 'asc', offset: 0, limit: PAGE_ROWS };
  private readonly body = h('tbody', null);
  private readonly table = h('table', { class: 'live-table', 'data-testid': 'live-table' });
  private readonly rows = new Map<string, RowEl>();
  private shown: readonly string[] = [];
  private holding = false;
  private readonly range = h('span', { class: 'muted small', 'data-testid': 'page-range' }, '…');
  private readonly prev = h('button', { class: 'btn small', type: 'button', 'data-testid': 'page-prev', 'aria-label': 'previous page' }, '‹');
  private readonly next = h('button', { class: 'btn small', type: 'button', 'data-testid': 'page-next', 'aria-label': 'next page' }, '›');
  private readonly preview = h('aside', { class: 'live-preview', 'data-testid': 'preview', 'aria-live': 'off' });
  private previewing: { id: string; board: BoardView } | null = null;
  private previewTimer: number | null = null;

  constructor(private readonly conn: AdminConnection) {
    const select = (testid: string, label: string, options: [string, string][], key: 'game' | 'kind' | 'state') => {
      const el = h('select', { 'data-testid': testid, 'aria-label': label }, ...options.map(([value, text]) => h('option', { value }, text)));
      this.disposer.listen(el, 'change', () => this.change({ [key]: el.value || undefined }));
      return el;
    };
    const search = h('input', { type: 'search', placeholder: 'Player, bot or game id', 'data-testid': 'search', 'aria-label': 'search players, bots or a game id' });
    let typing: number | null = null;
    this.disposer.listen(search, 'input', () => {
      if (typing !== null) window.clearTimeout(typing);
      typing = window.setTimeout(() => this.change({ q: search.value.trim() || undefined }), 100);
    });
    const sort = h('select', { 'data-testid': 'sort', 'aria-label': 'sort by' }, ...ADMIN_SORTS.map((s) => h('option', { value: s }, `by ${SORT_TEXT[s]}`)));
    this.disposer.listen(sort, 'change', () => this.change({ sort: sort.value as AdminQuery['sort'] }));
    const dir = h('button', { class: 'btn small', type: 'button', 'data-testid': 'sort-dir', 'aria-label': 'sort order' }, '↑');
    this.disposer.listen(dir, 'click', () => {
      const asc = this.query.dir !== 'asc';
      dir.textContent = asc ? '↑' : '↓';
      this.change({ dir: asc ? 'asc' : 'desc' });
    });
    this.disposer.listen(this.prev, 'click', () => this.turn(-1));
    this.disposer.listen(this.next, 'click', () => this.turn(1));
    const toolbar = h(
      'div',
      { class: 'live-toolbar' },
      select('filter-game', 'game', [['', 'All games'], ...GAME_IDS.map((g): [string, string] => [g, CLIENT_GAMES[g].title])], 'game'),
      select('filter-kind', 'kind of seat', [['', 'Any seat'], ['human', 'With a person'], ['bot', 'With a bot'], ['agent', 'With an agent']], 'kind'),
      select('filter-state', 'state', [['', 'Any state'], ['playing', 'Playing'], ['away', 'Waiting for a reconnect'], ['thinking', 'Bot to move']], 'state'),
      search,
      sort,
      dir,
      h('span', { class: 'pager' }, this.prev, this.range, this.next),
    );
    const head = h('thead', null, h('tr', null, ...['Game', 'Black', 'White', 'Ply', 'Clock', 'State', 'Bot', 'Age'].map((t) => h('th', { scope: 'col' }, t))));
    this.table.append(head, this.body);
    this.disposer.listen(this.body, 'mouseenter', () => (this.holding = true));
    this.disposer.listen(this.body, 'mouseleave', () => {
      this.holding = false;
      this.render();
      this.schedulePreview(null);
    });
    this.el = h('div', { class: 'live-games' }, toolbar, h('div', { class: 'live-main' }, h('div', { class: 'live-scroll', tabindex: 0, role: 'region', 'aria-label': 'live games' }, this.table), this.preview));
    this.disposer.add(
      conn.on((news) => {
        if (news.page) this.render();
        if (news.view && news.view.id === this.previewing?.id) this.drawPreview(news.view);
      }),
    );
    this.disposer.interval(() => this.tickClocks(), 1000);
    void conn.list({ ...this.query });
    this.render();
  }

  destroy(): void {
    this.schedulePreview(null);
    this.conn.unlist();
    this.disposer.dispose();
  }

  private change(patch: Partial<AdminQuery>): void {
    Object.assign(this.query, patch, { offset: 0 });
    this.holding = false;
    void this.conn.list({ ...this.query });
  }

  private turn(step: number): void {
    const total = this.conn.page?.total ?? 0;
    const offset = Math.max(0, Math.min((this.query.offset ?? 0) + step * PAGE_ROWS, Math.max(0, total - 1)));
    if (offset === this.query.offset) return;
    this.query.offset = offset;
    this.holding = false;
    void this.conn.list({ ...this.query });
  }

  private render(): void {
    const page = this.conn.page;
    if (!page) return;
    const byId = new Map(page.rows.map((r) => [r.id, r]));
    // Held: the rows on screen stay in their places (those gone from the page are marked ended)
    // and new ones are added below them.
    let ids = page.rows.map((r) => r.id);
    if (this.holding && this.shown.length > 0) {
      const kept = new Set(this.shown);
      ids = [...this.shown, ...ids.filter((id) => !kept.has(id))].slice(0, HELD_ROWS_MAX);
    }
    for (const id of ids) this.paint(id, byId.get(id) ?? null, page);
    if (ids.some((id, i) => this.body.children[i] !== this.rows.get(id)!.tr) || this.body.children.length !== ids.length) {
      replace(this.body, ...ids.map((id) => this.rows.get(id)!.tr));
    }
    for (const id of this.rows.keys()) if (!ids.includes(id)) this.rows.delete(id);
    this.shown = ids;
    if (ids.length === 0) replace(this.body, h('tr', null, h('td', { colspan: 8, class: 'muted empty-row' }, page.summary.live === 0 ? 'No live games: they appear here the moment they start.' : 'No live game matches.')));
    const first = page.total === 0 ? 0 : page.query.offset + 1;
    const n = (x: number) => x.toLocaleString('en-US');
    this.range.textContent = `${n(first)}–${n(Math.min(page.total, page.query.offset + page.rows.length))} of ${n(page.total)}`;
    this.prev.disabled = page.query.offset === 0;
    this.next.disabled = page.query.offset + page.rows.length >= page.total;
    // The query of the page shown, which may lag the controls by a round trip.
    Object.assign(this.table.dataset, { sort: page.query.sort, dir: page.query.dir, offset: String(page.query.offset) });
  }

  /** One row's cells, rewritten only when its data changed. */
  private paint(id: string, row: AdminRow | null, page: AdminPage): void {
    let el = this.rows.get(id);
    if (!el) {
      const cells = Array.from({ length: 8 }, () => h('td', null));
      const tr = h('tr', { 'data-testid': 'game-row', 'data-game-id': id, tabindex: 0 }, ...cells);
      tr.addEventListener('click', () => navigate(`/admin?watch=${encodeURIComponent(id)}`));
      tr.addEventListener('keydown', (e) => e.key === 'Enter' && navigate(`/admin?watch=${encodeURIComponent(id)}`));
      tr.addEventListener('mouseenter', () => this.schedulePreview(id));
      el = { tr, cells, last: '' };
      this.rows.set(id, el);
    }
    const print = row ? JSON.stringify(row) : 'gone';
    if (print === el.last) return;
    el.last = print;
    const { tr, cells } = el;
    if (!row) {
      tr.dataset.state = 'ended';
      cells[5]!.textContent = 'ended';
      return;
    }
    tr.dataset.state = row.state;
    tr.dataset.game = row.game;
    tr.dataset.ply = String(row.ply);
    tr.dataset.moved = String(row.updatedAt);
    tr.dataset.thinking = String(row.thinking);
    tr.dataset.clock = String(row.clock[row.toMove] ?? '');
    tr.dataset.at = String(page.at);
    const first = firstMover(row.game);
    const second = first === 'black' ? 'white' : 'black';
    const [a, b] = [row[first], row[second]];
    replace(cells[0]!, h('span', { class: `game-icon icon-${row.game}` }), CLIENT_GAMES[row.game].title, row.rated ? h('span', { class: 'pill pill-rated small' }, 'rated') : null);
    replace(cells[1]!, seatCell(a, row.toMove === first));
    replace(cells[2]!, seatCell(b, row.toMove === second));
    cells[3]!.textContent = String(row.ply);
    cells[4]!.textContent = row.clock[row.toMove] === null ? '—' : clockText(row.clock[row.toMove]!);
    cells[5]!.textContent = STATE_TEXT[row.state];
    cells[6]!.textContent = row.thinking ? 'thinking' : '';
    cells[7]!.textContent = ago(row.createdAt);
    cells[1]!.className = 'seat-cell';
    cells[2]!.className = 'seat-cell';
    cells[3]!.className = cells[4]!.className = 'cell-num';
  }

  /** Clocks run down between pages. */
  private tickClocks(): void {
    const now = Date.now();
    for (const { tr, cells } of this.rows.values()) {
      const left = Number(tr.dataset.clock);
      if (!tr.dataset.clock || tr.dataset.state === 'ended') continue;
      cells[4]!.textContent = clockText(Math.max(0, left - (now - Number(tr.dataset.at))));
    }
  }

  private schedulePreview(id: string | null): void {
    if (this.previewTimer !== null) window.clearTimeout(this.previewTimer);
    this.previewTimer = null;
    if (id === this.previewing?.id) return;
    if (id === null) return this.closePreview();
    this.previewTimer = window.setTimeout(() => {
      this.previewTimer = null;
      void this.openPreview(id);
    }, PREVIEW_DELAY_MS);
  }

  private async openPreview(id: string): Promise<void> {
    this.closePreview();
    const opened = await this.conn.open(id);
    if (typeof opened === 'string') return void this.conn.closeGame(id);
    if (this.previewTimer !== null || !this.holding) return void this.conn.closeGame(id);
    this.previewing = { id, board: new BoardView(opened.view.game, { small: true }) };
    this.drawPreview(opened.view);
  }

  private drawPreview(view: GameView): void {
    const board = this.previewing!.board;
    board.update({ snap: snapshot(view.game, view.options, parsePosition(view.game, view.position, view.options), view.moves), playable: false, orientation: firstMover(view.game), best: null });
    replace(this.preview, h('div', { class: 'preview-board' }, board.el), h('div', { class: 'muted small' }, `${CLIENT_GAMES[view.game].title} · ply ${view.ply}`));
    this.preview.dataset.gameId = view.id;
    this.preview.dataset.ply = String(view.ply);
  }

  private closePreview(): void {
    if (!this.previewing) return;
    this.conn.closeGame(this.previewing.id);
    this.previewing = null;
    replace(this.preview);
    delete this.preview.dataset.gameId;
  }
}

function seatCell(seat: AdminSeat, toMove: boolean): HTMLElement {
  return h(
    'span',
    { class: `seat-mini kind-${seat.kind}${toMove ? ' to-move' : ''}${seat.here ? '' : ' away'}`, title: `${seat.kind}${seat.here ? '' : ', away'}` },
    seat.name ?? 'open',
  );
}
