import './board-view.css';
import type { Color } from '../../../shared/color.js';
import type { GameId } from '../../../shared/rules.js';
import { h, replace } from '../dom.js';
import { settingsPanel } from '../components/settings-panel.js';
import { offsetOf } from '../games/client-game.js';
import { CLIENT_GAMES, type ClientGame, type Grid, type Motion } from '../games/index.js';
import type { Snapshot } from '../model.js';
import { settings } from '../settings.js';
import { armSound, moveSound } from '../sound.js';
import { moveSentence, occupant, squareLabel, type SquareMarks } from './describe.js';

/** What a board shows: a snapshot, whether the viewer may move now, and from which side. */
export interface BoardInput {
  readonly snap: Snapshot;
  /** The viewer may play one of `snap.legal` now. */
  readonly playable: boolean;
  /** The colour at the bottom (MiniChess turns the board for black). */
  readonly orientation: Color;
  /** A bot's current best move, drawn faintly. */
  readonly best?: string | null;
  /** The viewer is seated and waits for the opponent: with the premove setting, a move may be chosen ahead. */
  readonly premovable?: boolean;
}

export interface BoardOptions {
  readonly small?: boolean;
  readonly onMove?: (move: string) => void;
  /** A game in play at a player's screen: each new move sounds (when the player's settings say so). */
  readonly live?: boolean;
}

/**
 * A board drawn in SVG (crisp at any size) for any of the three games, under a grid of buttons,
 * one per square, for the keyboard and screen readers: one of them is in the tab order (roving
 * tabindex), arrow keys move between them, Enter or Space plays, Escape drops a selection; each
 * is labelled ("d3, empty, legal move"), and a polite live region says each move. Pointer clicks
 * land on the SVG. With the confirm setting a first tap marks a move and a second one plays it.
 * It calls `onMove` with a legal move in the game's notation. What differs by game (drawing,
 * geometry, words, picking up a piece) it asks the game's `ClientGame`.
 */
export class BoardView {
  readonly el: HTMLDivElement;
  /** The controls that go under a large board: zoom (Gomoku), confirm or cancel a marked move, settings. */
  readonly tools: HTMLDivElement;
  private input: BoardInput | null = null;
  private selected: string | null = null;
  /** The square that holds the tab stop. */
  private cursor: string | null = null;
  /** A move marked by a first tap, waiting for its confirmation. */
  private marked: string | null = null;
  /** A move chosen during the opponent's turn, played as the turn comes if it is legal then. */
  private premove: string | null = null;
  private zoomed = false;
  /** The square to bring into view once the zoomed board has its new size. */
  private revealing: string | null = null;
  private motion: Motion = {};
  /** Where the SVG goes: the board itself when small, else the zoomable surface. */
  private readonly art: HTMLElement;
  private readonly viewport: HTMLDivElement | null = null;
  private readonly cells: HTMLDivElement | null = null;
  /** The buttons by row and column of the grid as shown. */
  private readonly buttons: HTMLButtonElement[][] = [];
  private readonly announcer: HTMLElement | null = null;
  private readonly kind: ClientGame;

  constructor(
    readonly game: GameId,
    private readonly options: BoardOptions = {},
  ) {
    this.kind = CLIENT_GAMES[game];
    this.el = h('div', { class: `board board-${game}${options.small ? ' board-small' : ''}`, 'data-game': game });
    this.tools = h('div', { class: 'board-tools', 'data-testid': 'board-tools' });
    if (options.small) {
      this.art = this.el;
    } else {
      this.art = h('div', { class: 'board-art', 'aria-hidden': 'true' });
      this.cells = this.buildCells();
      const surface = h('div', { class: 'board-surface' }, this.art, this.cells);
      this.viewport = h('div', { class: 'board-viewport' }, surface);
      // The surface takes its zoomed size at the next layout, not at once: reveal then.
      new ResizeObserver(() => {
        if (this.zoomed && this.revealing) this.reveal(this.revealing, false);
        this.revealing = null;
      }).observe(surface);
      this.announcer = h('div', { class: 'sr-only', role: 'status', 'aria-live': 'polite', 'data-testid': 'announcer' });
      this.el.append(this.viewport, this.announcer);
      // The board itself passes focus on to the square holding the tab stop.
      this.el.tabIndex = -1;
      this.el.addEventListener('focus', () => this.focus());
      if (options.live) armSound();
    }
    this.el.addEventListener('click', (e) => {
      const target = e.target as Element;
      const cell = target.closest('[data-cell]')?.getAttribute('data-cell') ?? target.closest('[data-square]')?.getAttribute('data-square');
      if (!cell) return;
      if (this.cells && !target.closest('[data-square]')) this.moveCursor(cell, false);
      this.activate(cell);
    });
  }

  update(input: BoardInput): void {
    const before = this.input;
    this.motion = before ? motionBetween(before.snap, input.snap) : {};
    const moved = !!before && before.snap.moves.length !== input.snap.moves.length;
    if (moved || (!input.playable && !input.premovable)) {
      this.selected = null;
      this.marked = null;
    }
    this.input = input;
    let said = '';
    if (before && input.snap.moves.length === before.snap.moves.length + 1 && before.snap.game === input.snap.game) {
      said = moveSentence(before.snap, input.snap);
      if (this.options.live) moveSound(before.snap.toMove);
    }
    const premove = this.premove;
    if (premove && (input.playable || !input.premovable)) {
      this.premove = null;
      if (input.playable && input.snap.legal.includes(premove)) {
        // Played after this update returns: the move's own update would otherwise run inside this one.
        queueMicrotask(() => this.options.onMove?.(premove));
      } else if (input.playable) said += `${said ? '. ' : ''}Premove ${premove} is not legal now: dropped`;
    }
    if (said) this.say(said);
    this.render();
    if (moved && this.zoomed) this.reveal(input.snap.moves.at(-1), true);
  }

  /** Focuses the square holding the tab stop. */
  focus(): void {
    if (!this.input || !this.cells) return;
    this.buttonAt(this.cursor ?? this.startCursor())?.focus({ preventScroll: true });
  }

  /** A key pressed outside the board: an arrow brings the focus to it. True when it did something. */
  key(e: KeyboardEvent): boolean {
    if (!this.input || !this.cells || e.altKey || e.ctrlKey || e.metaKey || !e.key.startsWith('Arrow')) return false;
    this.focus();
    return true;
  }

  private buildCells(): HTMLDivElement {
    const { cols, rows } = this.grid('white');
    const { squares: area, view } = this.kind.area;
    const pct = (v: number, of: number) => `${((v / of) * 100).toFixed(4)}%`;
    const grid = h('div', {
      class: 'board-cells',
      role: 'grid',
      'aria-label': `${this.kind.title} board`,
      style: `left:${pct(area[0], view[0])};top:${pct(area[1], view[1])};width:${pct(area[2], view[0])};height:${pct(area[3], view[1])}`,
    });
    for (let r = 0; r < rows; r++) {
      const row = h('div', { role: 'row' });
      const line: HTMLButtonElement[] = [];
      for (let c = 0; c < cols; c++) {
        const button = h('button', { type: 'button', tabindex: -1 });
        line.push(button);
        row.append(h('div', { role: 'gridcell' }, button));
      }
      this.buttons.push(line);
      grid.append(row);
    }
    grid.addEventListener('keydown', (e) => {
      if (this.gridKey(e)) {
        e.preventDefault();
        e.stopPropagation();
      }
    });
    grid.addEventListener('focusin', (e) => {
      const square = (e.target as Element).getAttribute('data-square');
      if (square) this.moveCursor(square, false);
    });
    return grid;
  }

  /** Arrows, Home and End move between squares; Escape drops a mark or a selection. */
  private gridKey(e: KeyboardEvent): boolean {
    if (!this.input || e.altKey || e.metaKey) return false;
    const grid = this.grid(this.input.orientation);
    const at = offsetOf(grid, this.cursor ?? this.startCursor()) ?? [0, 0];
    let next: [number, number] | null = null;
    const steps: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const step = steps[e.key];
    if (step) next = [clamp(at[0] + step[0], 0, grid.cols - 1), clamp(at[1] + step[1], 0, grid.rows - 1)];
    else if (e.key === 'Home') next = e.ctrlKey ? [0, 0] : [0, at[1]];
    else if (e.key === 'End') next = e.ctrlKey ? [grid.cols - 1, grid.rows - 1] : [grid.cols - 1, at[1]];
    if (next) {
      this.moveCursor(grid.cell(next[0], next[1]), true);
      return true;
    }
    if (e.key === 'Escape' && (this.selected || this.marked || this.premove)) {
      this.selected = null;
      this.marked = null;
      this.premove = null;
      this.render();
      return true;
    }
    return false;
  }

  /** Gives the tab stop to a square, and the focus too when asked. */
  private moveCursor(square: string, focus: boolean): void {
    if (this.cursor !== square) {
      this.buttonAt(this.cursor ?? '')?.setAttribute('tabindex', '-1');
      this.cursor = square;
      this.buttonAt(square)?.setAttribute('tabindex', '0');
    }
    if (focus) {
      this.buttonAt(square)?.focus({ preventScroll: true });
      if (this.zoomed) this.reveal(square, true);
    }
  }

  private buttonAt(square: string): HTMLButtonElement | undefined {
    if (!this.input) return undefined;
    const at = offsetOf(this.grid(this.input.orientation), square);
    return at ? this.buttons[at[1]]?.[at[0]] : undefined;
  }

  /** Where the tab stop starts: a selected piece, else a legal square (unless every empty one is), else the last move, else the centre. */
  private startCursor(): string {
    const snap = this.input?.snap;
    const legal = this.kind.freePlacement ? undefined : snap?.legal.find((m) => m !== 'pass')?.slice(0, 2);
    const last = snap?.moves.filter((m) => m !== 'pass').at(-1)?.slice(-2);
    return this.selected ?? legal ?? last ?? this.kind.centre;
  }

  private say(text: string): void {
    if (this.announcer) this.announcer.textContent = text;
  }

  /** The premove setting is on and the viewer waits for the opponent. */
  private premoving(input: BoardInput): boolean {
    return !input.playable && input.premovable === true && !this.options.small && settings().premove;
  }

  /**
   * The moves the viewer may choose now: the legal moves on the viewer's turn; while premoving, the
   * game's premoves (MiniChess: the moves the viewer's pieces have as the board stands), else any
   * empty square (the opponent's move decides what is legal).
   */
  private choices(input: BoardInput): readonly string[] {
    if (input.playable) return input.snap.legal;
    if (!this.premoving(input)) return [];
    const { snap } = input;
    const premoves = this.kind.premoves?.(snap, input.orientation);
    if (premoves) return premoves;
    const grid = this.grid(input.orientation);
    const empty: string[] = [];
    for (let r = 0; r < grid.rows; r++) for (let c = 0; c < grid.cols; c++) if (occupant(snap, grid.cell(c, r)) === null) empty.push(grid.cell(c, r));
    return empty;
  }

  /** A click, a tap or Enter on a square. */
  private activate(cell: string): void {
    const input = this.input;
    if (!input || (!input.playable && !this.premoving(input))) return;
    const legal = this.choices(input);
    if (this.kind.moves === 'place') {
      if (legal.includes(cell)) this.commit(cell);
      else if (this.marked) this.unmark();
      return;
    }
    if (this.selected) {
      const move = legal.find((m) => m.startsWith(this.selected! + cell));
      if (move) return this.commit(move);
    }
    this.marked = null;
    this.selected = this.selected !== cell && legal.some((m) => m.startsWith(cell)) ? cell : null;
    this.render();
  }

  /**
   * Plays a move, or with the confirm setting marks it first and plays it when chosen again; during
   * the opponent's turn, keeps it as the premove (choosing the premove again cancels it).
   */
  private commit(move: string): void {
    if (this.input && !this.input.playable) {
      this.premove = this.premove === move ? null : move;
      this.selected = null;
      this.render();
      this.say(this.premove ? `Premove ${move}: played when your turn comes, if legal then` : 'Premove cancelled');
      return;
    }
    if (!this.options.small && settings().confirm && this.marked !== move) {
      this.marked = move;
      this.render();
      this.say(`${move} marked: press it again, or Confirm, to play it`);
      return;
    }
    this.marked = null;
    this.selected = null;
    this.options.onMove?.(move);
  }

  private unmark(): void {
    this.marked = null;
    this.render();
  }

  private toggleZoom(): void {
    this.zoomed = !this.zoomed;
    this.el.classList.toggle('zoomed', this.zoomed);
    this.render();
    const focused = this.cells?.contains(document.activeElement) ? this.cursor : null;
    if (this.zoomed) this.revealing = this.marked ?? focused ?? this.input?.snap.moves.at(-1) ?? this.kind.centre;
  }

  /** Zoomed, scrolls the board so a square shows, centred unless it already does. */
  private reveal(square: string | undefined, onlyIfHidden: boolean): void {
    const port = this.viewport;
    const button = square ? this.buttonAt(square) : undefined;
    if (!port || !button) return;
    const p = port.getBoundingClientRect();
    const b = button.getBoundingClientRect();
    const inside = b.left >= p.left && b.right <= p.right && b.top >= p.top && b.bottom <= p.bottom;
    if (onlyIfHidden && inside) return;
    port.scrollLeft += b.left + b.width / 2 - (p.left + p.width / 2);
    port.scrollTop += b.top + b.height / 2 - (p.top + p.height / 2);
  }

  private renderTools(): void {
    if (this.options.small) return;
    const items: HTMLElement[] = [];
    if (this.kind.zoomable) {
      items.push(
        h(
          'button',
          { type: 'button', class: 'btn small', 'aria-pressed': String(this.zoomed), 'data-testid': 'zoom', onclick: () => this.toggleZoom() },
          'Zoom',
        ),
      );
    }
    if (this.marked) {
      const move = this.marked;
      items.push(
        h('button', { type: 'button', class: 'btn small primary', 'data-testid': 'confirm-move', onclick: () => this.commit(move) }, `Play ${move}`),
        h('button', { type: 'button', class: 'btn small ghost', 'data-testid': 'cancel-move', onclick: () => this.unmark() }, 'Cancel'),
      );
    }
    if (this.premove) {
      items.push(h('button', { type: 'button', class: 'btn small ghost', 'data-testid': 'cancel-premove', onclick: () => this.commit(this.premove!) }, `Cancel premove ${this.premove}`));
    }
    const panel = this.tools.querySelector<HTMLElement>('.settings-panel') ?? settingsPanel();
    replace(this.tools, ...items, panel);
  }

  private render(): void {
    if (!this.input) return;
    const { snap, playable, orientation, best } = this.input;
    const svg = this.kind.draw({
      snap,
      playable,
      orientation,
      best: best ?? null,
      small: this.options.small === true,
      choices: this.choices(this.input),
      selected: this.selected,
      marked: this.marked,
      premove: this.premove,
      motion: this.motion,
    });
    svg.setAttribute('class', 'board-svg');
    svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
    this.el.classList.toggle('playable', this.input.playable);
    this.art.replaceChildren(svg);
    this.renderCells(this.input);
    this.renderTools();
  }

  /** Names each button for its square, with its label and the tab stop. */
  private renderCells(input: BoardInput): void {
    if (!this.cells) return;
    const grid = this.grid(input.orientation);
    const marks = this.marksOf(input);
    if (!this.cursor || !offsetOf(grid, this.cursor)) this.cursor = this.startCursor();
    for (let r = 0; r < grid.rows; r++) {
      for (let c = 0; c < grid.cols; c++) {
        const button = this.buttons[r]![c]!;
        const square = grid.cell(c, r);
        const label = squareLabel(input.snap, square, marks.get(square) ?? {});
        if (button.dataset.square !== square) button.dataset.square = square;
        if (button.getAttribute('aria-label') !== label) button.setAttribute('aria-label', label);
        button.tabIndex = square === this.cursor ? 0 : -1;
      }
    }
  }

  private marksOf(input: BoardInput): Map<string, SquareMarks> {
    const { snap } = input;
    const choices = this.choices(input);
    const marks = new Map<string, SquareMarks>();
    const add = (square: string, mark: SquareMarks) => marks.set(square, { ...marks.get(square), ...mark });
    if (this.kind.numbered) snap.moves.forEach((m, i) => add(m, { number: i + 1 }));
    const last = snap.moves.at(-1);
    if (last && last !== 'pass') add(last.slice(-2), { last: true });
    if (choices.length > 0) {
      if (this.kind.moves === 'from-to') {
        for (const mv of choices) {
          add(mv.slice(0, 2), { movable: true });
          if (this.selected && mv.startsWith(this.selected)) add(mv.slice(2, 4), { legal: true, capture: occupant(snap, mv.slice(2, 4)) !== null });
        }
        if (this.selected) add(this.selected, { selected: true });
      } else if (input.playable) for (const mv of choices) add(mv, { legal: true });
    }
    if (this.marked) add(this.target(this.marked), { marked: true });
    if (this.premove) add(this.target(this.premove), { premove: true });
    return marks;
  }

  /** The square a move ends on. */
  private target(move: string): string {
    return this.kind.moves === 'from-to' ? move.slice(2, 4) : move;
  }

  private grid(orientation: Color): Grid {
    return this.kind.grid(orientation);
  }
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, v));
}

/** What changed with one more move, for the animation: the new disc and flips, the new stone, the piece that moved. */
function motionBetween(before: Snapshot, after: Snapshot): Motion {
  if (after.moves.length !== before.moves.length + 1 || after.game !== before.game || after.moves.at(-1) === 'pass') return {};
  return CLIENT_GAMES[after.game].motion(before, after);
}
