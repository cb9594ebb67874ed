import './game-screen.css';
import { opposite, type Color } from '../../../shared/color.js';
import { applyMoved, clockAfterMoves, type GameView, type MovedEvent, type SeatView, type ThinkingView } from '../../../shared/protocol/index.js';
import { firstMover } from '../../../shared/games.js';
import { isForcedPass } from '../../../shared/forced-pass.js';
import { BoardView } from '../boards/board-view.js';
import { Disposer, h, replace, toast } from '../dom.js';
import { capital, changeText, clockText, compact, resultHeadline, scoreText, seatName, timeControlText } from '../format.js';
import { CLIENT_GAMES, type ClientGame } from '../games/index.js';
import { parsePosition, playMove, snapshot, type Snapshot } from '../model.js';
import type { ConnectionState } from '../net.js';
import { link, playerLink } from '../router.js';
import { copyText, countBadge, downloadLink, PositionText, resultDetail, showPanel } from './game-extras.js';
import { moveTimeTag } from './move-times.js';


/** What the screen asks of the page that shows it; a missing action hides its button. */
export interface GameActions {
  /** Sends a move; once accepted, its delta has been applied (`applyMoved`). */
  move?(ply: number, move: string): Promise<{ ok: true } | { ok: false; message: string }>;
  resign?(): Promise<void>;
  offerDraw?(): Promise<void>;
  acceptDraw?(): Promise<void>;
  declineDraw?(): Promise<void>;
  rematch?(): Promise<void>;
  leave?(): Promise<void>;
  takeSeat?(color: Color): Promise<void>;
  adjudicate?(winner: Color | 'draw', reason: string): Promise<void>;
  back?: { label: string; go(): void };
}

/**
 * One game on screen: the board between the two player bars, clocks counting down locally from
 * the server's reading, whose turn, the result, the buttons, the bots' thinking and the moves.
 * The page feeds it views (`setView`) from whatever source it listens to.
 */
export class GameScreen {
  readonly el: HTMLElement;
  private view: GameView | null = null;
  private mine: Color | null = null;
  private thinking: ThinkingView | null = null;
  private pending: { ply: number; move: string } | null = null;
  private connection: ConnectionState = 'online';
  private readonly board: BoardView;
  private readonly disposer = new Disposer();
  /** Server clock minus local clock, estimated from the readings (the least delayed one wins). */
  private skew: number | null = null;
  private resignArmed = false;
  /** Connections watching without a seat, as the server last said (`spectators`). */
  private spectators: number | null = null;
  private readonly positionText = new PositionText();
  /** The game's card beside the board (MiniChess's material race). */
  private readonly panel = h('div', { class: 'material-wrap', hidden: true });
  private readonly kind: ClientGame;
  private readonly parts: Record<'top' | 'bottom' | 'status' | 'banner' | 'actions' | 'thinking' | 'moves' | 'overlay' | 'admin' | 'head', HTMLElement>;

  constructor(
    readonly gameId: string,
    private readonly game: GameView['game'],
    private readonly actions: GameActions,
    private readonly mode: 'player' | 'admin' = 'player',
  ) {
    this.kind = CLIENT_GAMES[game];
    // The admin console follows games silently: the sound's audio device, opened on a first move,
    // held its page for 150-250 ms (the console's longest task at 2,000 live games).
    this.board = new BoardView(game, { onMove: (move) => void this.play(move), live: mode === 'player' });
    this.parts = {
      head: h('div', { class: 'game-head' }),
      top: h('div', { class: 'player-bar top' }),
      bottom: h('div', { class: 'player-bar bottom' }),
      status: h('div', { class: 'status-line', 'data-testid': 'status', 'aria-live': 'polite' }),
      banner: h('div', { class: 'result-banner', 'data-testid': 'result', role: 'status', hidden: true }),
      actions: h('div', { class: 'actions' }),
      thinking: h('div', { class: 'thinking', 'data-testid': 'thinking', hidden: true }),
      moves: h('ol', { class: 'move-list', 'data-testid': 'moves' }),
      overlay: h('div', { class: 'board-overlay', hidden: true }),
      admin: h('div', { class: 'admin-controls', hidden: true }),
    };
    this.el = h(
      'section',
      { class: `game-screen game-${game}`, 'data-game-id': gameId, style: `--aspect:${aspectOf(game)}` },
      h(
        'div',
        { class: 'board-col' },
        this.parts.top,
        h('div', { class: 'board-wrap' }, this.board.el, this.parts.overlay),
        this.parts.bottom,
        this.board.tools,
      ),
      h(
        'aside',
        { class: 'side' },
        this.parts.head,
        this.parts.status,
        this.parts.banner,
        this.panel,
        this.parts.actions,
        this.parts.admin,
        this.parts.thinking,
        h('div', { class: 'moves-card' }, h('div', { class: 'card-title' }, 'Moves'), this.parts.moves),
        this.positionText.el,
      ),
    );
    this.disposer.interval(() => this.tick(), 100);
    this.disposer.listen<KeyboardEvent>(document, 'keydown', (e) => this.globalKey(e));
  }

  destroy(): void {
    this.disposer.dispose();
  }

  get current(): GameView | null {
    return this.view;
  }

  setSeat(color: Color | null): void {
    this.mine = color;
    this.render();
  }

  setConnection(state: ConnectionState): void {
    this.connection = state;
    this.render();
  }

  /** A newer view replaces the shown one; an older one (a late event) is ignored. */
  setView(view: GameView): void {
    if (view.id !== this.gameId) return;
    const cur = this.view;
    if (cur && (view.ply < cur.ply || (view.ply === cur.ply && cur.status === 'finished' && view.status !== 'finished'))) return;
    const local = Date.now();
    const gap = view.clock.at - local;
    if (this.skew === null || gap > this.skew || Math.abs(gap - this.skew) > 5000) this.skew = gap;
    if (this.pending && view.ply > this.pending.ply) this.pending = null;
    if (cur && this.mine && cur.drawOffer === this.mine && view.drawOffer === null && view.status === 'live') toast(`${seatName(view.seats[opposite(this.mine)])} declined your draw offer.`);
    if (this.thinking && view.status !== 'live') this.thinking = null;
    this.view = view;
    this.render();
  }

  /**
   * A move's delta applied to the shown view with the rules. False when it does not follow the
   * shown view (an event was missed): the page asks for the whole view again (`room:sync`).
   */
  applyMoved(event: MovedEvent): boolean {
    const next = this.view && applyMoved(this.view, event);
    if (!next) return false;
    if (next !== this.view) this.setView(next);
    return true;
  }

  setSpectators(count: number): void {
    this.spectators = count;
    if (this.view) this.renderHead();
  }

  setThinking(thinking: ThinkingView): void {
    if (thinking.gameId !== this.gameId || (this.view && thinking.ply < this.view.ply - 1)) return;
    this.thinking = thinking;
    this.renderThinking();
    this.renderBoard();
  }

  focusBoard(): void {
    this.board.focus();
  }

  private snap(): Snapshot | null {
    const view = this.view;
    if (!view) return null;
    const position = parsePosition(view.game, view.position, view.options);
    if (this.pending && this.pending.ply === view.ply) {
      const next = playMove(view.game, position, this.pending.move);
      if (next) return snapshot(view.game, view.options, next, [...view.moves, this.pending.move]);
    }
    return snapshot(view.game, view.options, position, view.moves);
  }

  /** A forced pass is not the player's to make: the server plays it at once. */
  private myTurn(): boolean {
    const v = this.view;
    return !!v && v.status === 'live' && this.mine !== null && v.toMove === this.mine && !isForcedPass(v.legal) && !this.pending && this.connection === 'online' && !!this.actions.move;
  }

  private async play(move: string): Promise<void> {
    const view = this.view;
    if (!view || !this.myTurn() || !this.actions.move) return;
    this.pending = { ply: view.ply, move };
    this.render();
    // Accepted, the move's delta has gone through setView, which clears `pending`.
    const ack = await this.actions.move(view.ply, move);
    if (ack.ok) return;
    toast(ack.message, 'error');
    if (this.pending?.ply === view.ply) this.pending = null;
    this.render();
  }

  private globalKey(e: KeyboardEvent): void {
    if (e.defaultPrevented || !this.el.isConnected) return;
    const target = e.target as HTMLElement | null;
    if (target && (target.closest('input, select, textarea, button, a') || target.isContentEditable)) return;
    if (target && this.board.el.contains(target)) return;
    if (this.board.key(e)) e.preventDefault();
  }

  // ————— rendering —————

  private bottomColor(): Color {
    if (this.mine) return this.mine;
    return firstMover(this.game);
  }

  private render(): void {
    const view = this.view;
    if (!view) return;
    this.el.dataset.status = view.status;
    this.el.dataset.ply = String(view.ply);
    this.el.dataset.myColor = this.mine ?? '';
    this.el.dataset.myTurn = String(this.myTurn());
    this.el.dataset.connection = this.connection;
    this.renderHead();
    this.renderBoard();
    this.renderPlayers();
    this.renderStatus();
    this.renderBanner();
    this.renderActions();
    this.renderAdmin();
    this.renderThinking();
    this.renderMoves();
    this.renderExtras();
    this.tick();
    const overlay = this.parts.overlay;
    overlay.hidden = this.connection === 'online';
    replace(overlay, h('div', { class: 'pill' }, h('span', { class: 'spinner' }), 'Reconnecting…'));
    document.title = `${this.myTurn() ? '● Your move · ' : ''}${this.kind.title} — Boardroom`;
  }

  private renderHead(): void {
    const view = this.view!;
    const statusText = view.status === 'live' ? 'Live' : view.status === 'waiting' ? 'Waiting' : 'Finished';
    replace(
      this.parts.head,
      h(
        'h1',
        { class: 'game-title' },
        h('span', { class: `game-icon icon-${this.game}` }),
        this.kind.title,
        h('span', { class: `pill pill-${view.status}` }, statusText),
        this.mine === null && this.mode === 'player' ? h('span', { class: 'pill pill-watching', 'data-testid': 'watching' }, 'You are watching') : null,
      ),
      h(
        'div',
        { class: 'game-meta' },
        timeControlText(view.clock.control),
        ' · room ',
        h('code', null, view.id),
        this.spectators === null ? null : h('span', { 'data-testid': 'spectators', 'data-count': this.spectators }, ` · ${this.spectators} watching`),
      ),
    );
  }

  private renderBoard(): void {
    const snap = this.snap();
    if (!snap || !this.view) return;
    const best = this.thinkingShown() && this.thinking?.ply === this.view.ply ? (this.thinking.pv[0] ?? null) : null;
    const v = this.view;
    const premovable = v.status === 'live' && this.mine !== null && v.toMove !== this.mine && this.connection === 'online' && !!this.actions.move;
    this.board.update({ snap, playable: this.myTurn(), orientation: this.bottomColor(), best, premovable });
  }

  /** Admins always see the bots' thinking; spectators when the room shows it; a seated player never (it would be a hint). */
  private thinkingShown(): boolean {
    if (this.mode === 'admin') return true;
    return !!this.view?.showThinking && this.mine === null;
  }

  private renderPlayers(): void {
    const bottom = this.bottomColor();
    this.fillBar(this.parts.top, opposite(bottom));
    this.fillBar(this.parts.bottom, bottom);
  }

  private fillBar(bar: HTMLElement, color: Color): void {
    const view = this.view!;
    const seat: SeatView = view.seats[color];
    const toMove = view.status === 'live' && view.toMove === color;
    bar.dataset.color = color;
    bar.classList.toggle('to-move', toMove);
    const kind = seat.kind === 'human' ? null : h('span', { class: `badge badge-${seat.kind}` }, seat.kind);
    const you = this.mine === color ? h('span', { class: 'badge badge-you' }, 'you') : null;
    const away = seat.name && !seat.connected && seat.kind !== 'bot' ? h('span', { class: 'away', title: 'disconnected' }, 'away') : null;
    const thinkingDots = toMove && seat.kind === 'bot' ? h('span', { class: 'dots', title: 'thinking' }, h('i'), h('i'), h('i')) : null;
    const clock = view.clock.control.kind === 'none' ? null : h('span', { class: 'clock', 'data-clock': color }, '');
    replace(
      bar,
      h('span', { class: 'token' }, this.kind.token(color)),
      h('span', { class: `who${seat.name ? '' : ' open'}` }, h('span', { class: 'name' }, seat.name && seat.identity ? playerLink(seat.name, `player-${color}`) : seatName(seat)), kind, you, away, thinkingDots),
      countBadge(this.game, parsePosition(view.game, view.position), color),
      clock,
    );
  }

  private tick(): void {
    const view = this.view;
    if (!view || view.clock.control.kind === 'none') return;
    const serverNow = Date.now() + (this.skew ?? 0);
    for (const color of ['black', 'white'] as const) {
      const el = this.el.querySelector<HTMLElement>(`[data-clock="${color}"]`);
      if (!el) continue;
      const reading = view.clock[color];
      if (reading === null) {
        el.textContent = '—';
        continue;
      }
      const running = view.status === 'live' && view.clock.running === color;
      const left = running ? reading - Math.max(0, serverNow - view.clock.at) : reading;
      el.textContent = clockText(left);
      el.classList.toggle('running', running);
      el.classList.toggle('low', running && left < 10_000);
    }
  }

  private renderStatus(): void {
    const view = this.view!;
    let text: string;
    if (view.status === 'waiting') {
      const open = (['black', 'white'] as const).filter((c) => !view.seats[c].name && view.seats[c].kind !== 'bot');
      text = open.length === 0 ? 'Starting…' : `Waiting for ${open.map((c) => `${c === 'black' ? 'Black' : 'White'}${view.seats[c].kind === 'agent' ? ' (agent)' : ''}`).join(' and ')} to sit down`;
    } else if (view.status === 'finished') {
      text = 'Game over';
    } else if (this.pending) {
      text = 'Sending your move…';
    } else if (this.mine && view.toMove === this.mine) {
      text = isForcedPass(view.legal) ? 'You have no move: passing' : 'Your move';
    } else {
      const seat = view.seats[view.toMove];
      text = this.mine ? `Waiting for ${seatName(seat)}…` : `${capital(view.toMove)} to move · ${seatName(seat)}`;
    }
    if (view.status === 'live') text += this.kind.statusNote?.(view.ply) ?? '';
    this.parts.status.textContent = text;
    this.parts.status.hidden = view.status === 'finished';
    this.parts.status.classList.toggle('yours', this.myTurn());
  }

  private renderBanner(): void {
    const view = this.view!;
    const banner = this.parts.banner;
    if (view.status !== 'finished' || !view.result) {
      banner.hidden = true;
      return;
    }
    banner.hidden = false;
    const r = view.result;
    const outcome = r.reason === 'aborted' ? 'aborted' : r.winner === null ? 'draw' : this.mine ? (r.winner === this.mine ? 'won' : 'lost') : r.winner;
    banner.dataset.outcome = outcome;
    banner.dataset.winner = r.winner ?? 'draw';
    banner.dataset.reason = r.reason;
    const detail = resultDetail(this.game, parsePosition(view.game, view.position), r);
    const change = view.ratingChange;
    const ratings = change
      ? h(
          'div',
          { class: 'rating-changes', 'data-testid': 'rating-change' },
          ...(['black', 'white'] as const).map((c) => h('span', { class: 'rating-change', 'data-color': c }, `${seatName(view.seats[c])} ${Math.round(change[c].before)} → ${changeText(change[c])}`)),
        )
      : view.rated
        ? h('div', { class: 'rating-note', 'data-testid': 'rating-note' }, 'Not rated: the game ended before both sides moved.')
        : null;
    replace(banner, h('div', { class: 'headline' }, resultHeadline(r, this.mine)), h('div', { class: 'detail' }, detail), ratings);
  }

  private renderActions(): void {
    const view = this.view!;
    const a = this.actions;
    const buttons: HTMLElement[] = [];
    const mine = this.mine;
    const btn = (label: string, onclick: () => unknown, cls = '', testid?: string, disabled = false) =>
      h('button', { class: `btn ${cls}`, type: 'button', 'data-testid': testid, disabled, onclick: () => void onclick() }, label);
    if (view.status === 'live' && mine) {
      if (view.drawOffer === opposite(mine)) {
        buttons.push(btn('Accept draw', () => a.acceptDraw?.(), 'primary', 'draw-accept'));
        buttons.push(btn('Decline', () => a.declineDraw?.(), '', 'draw-decline'));
      } else if (a.offerDraw) {
        const offered = view.drawOffer === mine;
        buttons.push(btn(offered ? 'Draw offered' : 'Offer draw', () => a.offerDraw?.(), '', 'draw-offer', offered));
      }
      if (a.resign) {
        buttons.push(
          btn(this.resignArmed ? 'Really resign?' : 'Resign', () => this.resignClick(), this.resignArmed ? 'danger' : 'ghost-danger', 'resign'),
        );
      }
    }
    if (view.status === 'waiting') {
      if (mine) {
        buttons.push(btn('Copy invite link', () => copyText(`${location.origin}/game/${view.id}`, 'Invite link copied.'), 'primary', 'invite'));
        if (a.leave) buttons.push(btn('Leave', () => a.leave?.(), '', 'leave'));
      } else if (a.takeSeat) {
        for (const color of ['black', 'white'] as const) {
          const seat = view.seats[color];
          if (seat.kind === 'human' && !seat.name) buttons.push(btn(`Play as ${color}`, () => a.takeSeat?.(color), 'primary', `sit-${color}`));
        }
      }
    }
    if (view.status === 'finished') {
      if (mine && a.rematch) buttons.push(btn(view.rematch ? 'Join rematch' : 'Rematch', () => a.rematch?.(), 'primary', 'rematch'));
      else if (view.rematch && this.mode === 'player') buttons.push(link(`/game/${view.rematch}`, 'Watch the rematch', 'btn'));
      if (this.mode === 'player') buttons.push(link(`/replay/${view.id}`, 'Replay', 'btn', 'replay-link'), downloadLink(view.id, this.game));
    }
    if (a.back) buttons.push(btn(a.back.label, () => a.back?.go(), 'ghost', 'back'));
    replace(this.parts.actions, ...buttons);
    if (view.drawOffer && mine && view.drawOffer !== mine && view.status === 'live') {
      this.parts.actions.prepend(h('div', { class: 'offer-note', 'data-testid': 'draw-note' }, `${seatName(view.seats[view.drawOffer])} offers a draw.`));
    }
  }

  private resignClick(): void {
    if (!this.resignArmed) {
      this.resignArmed = true;
      this.renderActions();
      window.setTimeout(() => {
        this.resignArmed = false;
        if (this.view) this.renderActions();
      }, 3000);
      return;
    }
    this.resignArmed = false;
    void this.actions.resign?.();
  }

  private renderAdmin(): void {
    const panel = this.parts.admin;
    const view = this.view!;
    if (!this.actions.adjudicate || view.status === 'finished') {
      panel.hidden = true;
      return;
    }
    if (!panel.hidden && panel.childElementCount > 0) return; // keep what the admin is typing
    panel.hidden = false;
    const winner = h(
      'select',
      { 'data-testid': 'admin-winner', 'aria-label': 'winner' },
      h('option', { value: '', selected: true, disabled: true }, 'Result…'),
      h('option', { value: 'black' }, 'Black wins'),
      h('option', { value: 'white' }, 'White wins'),
      h('option', { value: 'draw' }, 'Draw'),
    );
    const reason = h('input', { type: 'text', placeholder: 'reason', maxlength: 80, required: true, 'data-testid': 'admin-reason', 'aria-label': 'reason' });
    const note = h('div', { class: 'muted small', 'data-testid': 'admin-note', role: 'status' });
    const row = h('div', { class: 'row' });
    // Two steps: the admin chooses a result and says why, then confirms what will be announced.
    const choose = (): void => {
      replace(
        row,
        winner,
        reason,
        h('button', { class: 'btn danger', type: 'button', 'data-testid': 'admin-end', onclick: () => confirm() }, 'End game…'),
      );
    };
    const confirm = (): void => {
      const result = winner.value as Color | 'draw' | '';
      const why = reason.value.trim();
      if (!result || !why) return void (note.textContent = 'Choose a result and give a reason: the players will read it.');
      note.textContent = '';
      const said = result === 'draw' ? 'a draw' : `${capital(result)} wins`;
      replace(
        row,
        h('span', { class: 'confirm-text' }, `End this game as ${said}: “${why}”?`),
        h('button', { class: 'btn danger', type: 'button', 'data-testid': 'admin-end-confirm', onclick: () => void this.actions.adjudicate?.(result, why) }, 'Yes, end it'),
        h('button', { class: 'btn ghost', type: 'button', 'data-testid': 'admin-end-cancel', onclick: () => choose() }, 'Cancel'),
      );
    };
    choose();
    replace(panel, h('div', { class: 'card-title' }, 'End or adjudicate'), row, note);
  }

  private renderThinking(): void {
    const view = this.view;
    const panel = this.parts.thinking;
    if (!view) return;
    const allowed = this.thinkingShown();
    const botToMove = view.status === 'live' && view.seats[view.toMove].kind === 'bot';
    if (!allowed || (!this.thinking && !botToMove)) {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    const t = this.thinking;
    if (!t) {
      replace(panel, h('div', { class: 'card-title' }, 'Thinking'), h('div', { class: 'muted' }, `${seatName(view.seats[view.toMove])} is thinking…`));
      return;
    }
    const stale = t.ply !== view.ply;
    panel.classList.toggle('stale', stale);
    replace(
      panel,
      h('div', { class: 'card-title' }, 'Thinking', h('span', { class: 'muted' }, ` · ${t.bot} (${t.color})${stale ? ' · last move' : ''}`)),
      h(
        'div',
        { class: 'think-stats' },
        stat('depth', String(t.depth), 'depth'),
        stat('score', scoreText(t.score), 'score'),
        stat('nodes', compact(t.nodes)),
        stat('speed', `${compact(t.nps)}/s`),
        stat('time', `${t.ms} ms`),
      ),
      h('div', { class: 'pv', 'data-testid': 'pv' }, h('span', { class: 'muted' }, 'line '), ...t.pv.slice(0, 12).map((m, i) => h('span', { class: `pv-move${i === 0 ? ' first' : ''}` }, m))),
    );
  }

  /** The game's card (MiniChess's material race), and the position text to copy. */
  private renderExtras(): void {
    const view = this.view!;
    showPanel(this.panel, this.game, parsePosition(view.game, view.position), view.ply);
    this.positionText.update(view.position);
  }

  private renderMoves(): void {
    const view = this.view!;
    const list = this.parts.moves;
    const moves = this.pending && this.pending.ply === view.ply ? [...view.moves, this.pending.move] : [...view.moves];
    const rows: HTMLElement[] = [];
    // Each played move with the time it took (a move still on its way has none yet).
    const clocks = clockAfterMoves(view.clock.control, view.moveMs ?? [], firstMover(this.game));
    const cell = (k: number) =>
      h('span', { class: `mv${k === moves.length - 1 ? ' last' : ''}` }, moves[k] ?? '', k < view.moves.length ? moveTimeTag(view.moveMs?.[k], clocks[k]) : null);
    for (let i = 0; i < moves.length; i += 2) rows.push(h('li', null, h('span', { class: 'mv-n' }, String(i / 2 + 1)), cell(i), cell(i + 1)));
    if (rows.length === 0) rows.push(h('li', { class: 'empty' }, `${capital(firstMover(this.game))} moves first.`));
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    replace(list, ...rows);
    if (atBottom || this.view?.status !== 'finished') list.scrollTop = list.scrollHeight;
  }
}

function stat(label: string, value: string, testid?: string): HTMLElement {
  return h('span', { class: 'stat', 'data-testid': testid ? `think-${testid}` : null }, h('b', null, value), h('small', null, label));
}

/** The board's width over its height, for the page's layout (`--aspect`). */
export function aspectOf(game: GameView['game']): string {
  const [width, height] = CLIENT_GAMES[game].area.view;
  return width === height ? '1' : (width / height).toFixed(4);
}
