import { opposite, type Color } from '../../../shared/color.js';
import { GAMES } from '../../../shared/games.js';
import type { MiniChessPosition } from '../../../shared/minichess/index.js';
import type { OthelloPosition } from '../../../shared/othello/index.js';
import type { GameId } from '../../../shared/rules.js';
import { h, replace, s } from '../dom.js';
import { settingsPanel } from '../components/settings-panel.js';
import { GAME_TITLES, gomokuStone, gomokuWinLine, minichessSquares, type Snapshot } from '../model.js';
import { settings } from '../settings.js';
import { armSound, moveSound } from '../sound.js';
import { pieceUse } from './defs.js';
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
  /** A game in play: each new move sounds (when the player's settings say so). */
  readonly live?: boolean;
}

interface Grid {
  readonly cols: number;
  readonly rows: number;
  cell(col: number, row: number): string;
}

const FILES = 'abcdefghijklmno';

function gridOf(game: GameId, orientation: Color): Grid {
  switch (game) {
    case 'othello':
      return { cols: 8, rows: 8, cell: (c, r) => `${FILES[c]}${r + 1}` };
    case 'gomoku':
      return { cols: 15, rows: 15, cell: (c, r) => `${FILES[c]}${15 - r}` };
    case 'minichess':
      return orientation === 'white'
        ? { cols: 5, rows: 6, cell: (c, r) => `${FILES[c]}${6 - r}` }
        : { cols: 5, rows: 6, cell: (c, r) => `${FILES[4 - c]}${r + 1}` };
  }
}

/**
 * Where the squares lie in the SVG's viewBox: left, top, width and height of the area they tile,
 * and the viewBox's size; the accessible grid of buttons is laid over exactly that area.
 */
const AREA: Record<GameId, { area: [number, number, number, number]; view: [number, number] }> = {
  othello: { area: [44, 44, 800, 800], view: [888, 888] },
  gomoku: { area: [37, 37, 750, 750], view: [824, 824] },
  minichess: { area: [0, 0, 500, 600], view: [500, 600] },
};

/** Last-move animation facts, worked out when a board receives the position after one more move. */
interface Motion {
  readonly placed?: string;
  readonly flips?: ReadonlySet<string>;
  readonly slide?: { from: string; to: string };
}

/**
 * A board drawn in SVG (crisp at any size) for any of the three games, under a grid of buttons,
 * one per square, for the keyboard and screen readers: one of them is in the tab order (roving
 * tabindex), arrow keys move between them, Enter or Space plays, Escape drops a selection; each
 * is labelled ("d3, empty, legal move"), and a polite live region says each move. Pointer clicks
 * land on the SVG. With the confirm setting a first tap marks a move and a second one plays it.
 * It calls `onMove` with a legal move in the game's notation.
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

  constructor(
    readonly game: GameId,
    private readonly options: BoardOptions = {},
  ) {
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
    const { cols, rows } = gridOf(this.game, 'white');
    const { area, view } = AREA[this.game];
    const pct = (v: number, of: number) => `${((v / of) * 100).toFixed(4)}%`;
    const grid = h('div', {
      class: 'board-cells',
      role: 'grid',
      'aria-label': `${GAME_TITLES[this.game]} board`,
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
    const grid = gridOf(this.game, this.input.orientation);
    const at = gridOffset(grid, this.cursor ?? this.startCursor()) ?? [0, 0];
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
    const at = gridOffset(gridOf(this.game, this.input.orientation), square);
    return at ? this.buttons[at[1]]?.[at[0]] : undefined;
  }

  /** Where the tab stop starts: a selected piece, else a legal square (Othello, MiniChess), else the last move, else the centre. */
  private startCursor(): string {
    const snap = this.input?.snap;
    const legal = this.game === 'gomoku' ? undefined : snap?.legal.find((m) => m !== 'pass')?.slice(0, 2);
    const last = snap?.moves.filter((m) => m !== 'pass').at(-1)?.slice(-2);
    return this.selected ?? legal ?? last ?? (this.game === 'gomoku' ? 'h8' : this.game === 'othello' ? 'd4' : 'c3');
  }

  private say(text: string): void {
    if (this.announcer) this.announcer.textContent = text;
  }

  /** The premove setting is on and the viewer waits for the opponent. */
  private premoving(input: BoardInput): boolean {
    return !input.playable && input.premovable === true && !this.options.small && settings().premove;
  }

  /**
   * The moves the viewer may choose now: the legal moves on the viewer's turn; while premoving, any
   * empty point (Othello, Gomoku: the opponent's move decides what is legal), or the MiniChess
   * moves the viewer's pieces have as the board stands.
   */
  private choices(input: BoardInput): readonly string[] {
    if (input.playable) return input.snap.legal;
    if (!this.premoving(input)) return [];
    const { snap } = input;
    if (this.game !== 'minichess') {
      const grid = gridOf(this.game, input.orientation);
      const empty: string[] = [];
      for (let r = 0; r < grid.rows; r++) for (let c = 0; c < grid.cols; c++) if (occupant(snap, grid.cell(c, r)) === null) empty.push(grid.cell(c, r));
      return empty;
    }
    const { rules } = GAMES.minichess;
    const mine: MiniChessPosition = { ...(snap.position as MiniChessPosition), toMove: input.orientation };
    return rules.legalMoves(mine).map((m) => rules.formatMove(m));
  }

  /** A click, a tap or Enter on a square. */
  private activate(cell: string): void {
    const input = this.input;
    if (!input || (!input.playable && !this.premoving(input))) return;
    const legal = this.choices(input);
    if (this.game !== 'minichess') {
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
    if (this.zoomed) this.revealing = this.marked ?? focused ?? this.input?.snap.moves.at(-1) ?? 'h8';
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
    if (this.game === 'gomoku') {
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
    const svg =
      this.game === 'othello' ? this.drawOthello(this.input) : this.game === 'gomoku' ? this.drawGomoku(this.input) : this.drawMiniChess(this.input);
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
    const grid = gridOf(this.game, input.orientation);
    const marks = this.marksOf(input);
    if (!this.cursor || !gridOffset(grid, this.cursor)) this.cursor = this.startCursor();
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
    if (this.game === 'gomoku') snap.moves.forEach((m, i) => add(m, { number: i + 1 }));
    const last = snap.moves.at(-1);
    if (last && last !== 'pass') add(last.slice(-2), { last: true });
    if (choices.length > 0) {
      if (this.game === 'minichess') {
        for (const mv of choices) {
          add(mv.slice(0, 2), { movable: true });
          if (this.selected && mv.startsWith(this.selected)) add(mv.slice(2, 4), { legal: true, capture: occupant(snap, mv.slice(2, 4)) !== null });
        }
        if (this.selected) add(this.selected, { selected: true });
      } else if (input.playable) for (const mv of choices) add(mv, { legal: true });
    }
    if (this.marked) add(this.game === 'minichess' ? this.marked.slice(2, 4) : this.marked, { marked: true });
    if (this.premove) add(this.game === 'minichess' ? this.premove.slice(2, 4) : this.premove, { premove: true });
    return marks;
  }

  // ————— Othello —————

  private drawOthello(input: BoardInput): SVGSVGElement {
    const small = this.options.small === true;
    const m = small ? 0 : 44;
    const W = 800 + 2 * m;
    const { snap } = input;
    const board = (snap.position as OthelloPosition).board;
    const last = snap.moves.at(-1);
    const svg = s('svg', { viewBox: `0 0 ${W} ${W}`, role: 'img', 'aria-label': 'Othello board' });
    svg.append(s('rect', { class: 'frame', x: 0, y: 0, width: W, height: W, rx: small ? 14 : 26 }));
    if (!small) {
      for (let i = 0; i < 8; i++) {
        svg.append(s('text', { class: 'coord', x: m + i * 100 + 50, y: m / 2 + 1 }, FILES[i]));
        svg.append(s('text', { class: 'coord', x: m / 2, y: m + i * 100 + 51 }, String(i + 1)));
      }
    }
    svg.append(s('rect', { class: 'felt', x: m, y: m, width: 800, height: 800, rx: small ? 14 : 6 }));
    for (let i = 1; i < 8; i++) {
      svg.append(s('line', { class: 'grid', x1: m + i * 100, y1: m, x2: m + i * 100, y2: m + 800 }));
      svg.append(s('line', { class: 'grid', x1: m, y1: m + i * 100, x2: m + 800, y2: m + i * 100 }));
    }
    for (const [x, y] of [
      [2, 2],
      [6, 2],
      [2, 6],
      [6, 6],
    ] as const) {
      svg.append(s('circle', { class: 'dot', cx: m + x * 100, cy: m + y * 100, r: 7 }));
    }
    const mover = snap.toMove;
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        const name = `${FILES[col]}${row + 1}`;
        const c = board[row * 8 + col];
        const disc = c === 'X' ? 'black' : c === 'O' ? 'white' : null;
        const legal = input.playable && snap.legal.includes(name);
        const cx = m + col * 100 + 50;
        const cy = m + row * 100 + 50;
        const marked = this.marked === name;
        const pre = this.premove === name;
        const g = s('g', { class: 'cell', 'data-cell': name, 'data-disc': disc ?? '', 'data-legal': legal ? 'true' : null, 'data-marked': marked ? 'true' : null, 'data-premove': pre ? 'true' : null });
        g.append(s('rect', { class: 'hit', x: cx - 50, y: cy - 50, width: 100, height: 100 }));
        if (disc) {
          const anim = this.motion.placed === name ? ' place' : this.motion.flips?.has(name) ? ' flip' : '';
          if (!small) g.append(s('circle', { class: 'disc-shadow', cx: cx + 1.5, cy: cy + 3.5, r: 41 }));
          g.append(s('circle', { class: `disc disc-${disc}${anim}`, cx, cy, r: 41, fill: `url(#disc-${disc})` }));
          if (name === last) g.append(s('circle', { class: 'last-marker', cx, cy, r: 7 }));
        } else if (legal) {
          g.append(s('circle', { class: `ghost disc-${mover}${marked ? ' marked' : ''}`, cx, cy, r: 41, fill: `url(#disc-${mover})` }));
          g.append(s('circle', { class: `hint hint-${mover}`, cx, cy, r: 11 }));
          if (marked) g.append(s('circle', { class: 'mark-ring', cx, cy, r: 45 }));
        } else if (pre && !disc) {
          g.append(s('circle', { class: `ghost disc-${opposite(mover)} marked`, cx, cy, r: 41, fill: `url(#disc-${opposite(mover)})` }));
          g.append(s('circle', { class: 'mark-ring premove-ring', cx, cy, r: 45 }));
        }
        if (input.best === name && !disc) g.append(s('circle', { class: 'best', cx, cy, r: 34 }));
        svg.append(g);
      }
    }
    return svg;
  }

  // ————— Gomoku —————

  private drawGomoku(input: BoardInput): SVGSVGElement {
    const small = this.options.small === true;
    const G = 50;
    const m = small ? 34 : 62;
    const W = 14 * G + 2 * m;
    const { snap } = input;
    const numbers = new Map<string, number>();
    snap.moves.forEach((mv, i) => numbers.set(mv, i + 1));
    const last = snap.moves.at(-1);
    const winLine = snap.outcome?.reason === 'five' ? gomokuWinLine(snap.position, last, snap.options.exactFive === true) : null;
    const svg = s('svg', { viewBox: `0 0 ${W} ${W}`, role: 'img', 'aria-label': 'Gomoku board' });
    svg.append(s('rect', { class: 'wood', x: 0, y: 0, width: W, height: W, rx: small ? 14 : 22 }));
    const at = (file: number, rank: number): [number, number] => [m + file * G, m + (15 - rank) * G];
    for (let i = 0; i < 15; i++) {
      const edge = i === 0 || i === 14 ? ' edge' : '';
      svg.append(s('line', { class: `grid${edge}`, x1: m + i * G, y1: m, x2: m + i * G, y2: m + 14 * G }));
      svg.append(s('line', { class: `grid${edge}`, x1: m, y1: m + i * G, x2: m + 14 * G, y2: m + i * G }));
      if (!small) {
        svg.append(s('text', { class: 'coord', x: m + i * G, y: W - m / 2 + 12 }, FILES[i]));
        // Right-aligned well clear of file a, so a stone there (radius 23.5) never covers "15".
        svg.append(s('text', { class: 'coord coord-rank', x: m - 31, y: m + i * G + 1 }, String(15 - i)));
      }
    }
    for (const [f, r] of [
      [3, 4],
      [11, 4],
      [7, 8],
      [3, 12],
      [11, 12],
    ] as const) {
      const [x, y] = at(f, r);
      svg.append(s('circle', { class: 'star', cx: x, cy: y, r: small ? 6 : 5.5 }));
    }
    const mover = snap.toMove;
    const numbersLayer = s('g', { class: 'numbers' });
    for (let rank = 15; rank >= 1; rank--) {
      for (let file = 0; file < 15; file++) {
        const name = `${FILES[file]}${rank}`;
        const c = gomokuStone(snap.position, file, rank);
        const stone = c === 'X' ? 'black' : c === 'O' ? 'white' : null;
        const [x, y] = at(file, rank);
        const legal = input.playable && !stone;
        const marked = this.marked === name;
        const pre = this.premove === name;
        const g = s('g', { class: 'cell', 'data-cell': name, 'data-stone': stone ?? '', 'data-legal': legal ? 'true' : null, 'data-marked': marked ? 'true' : null, 'data-premove': pre ? 'true' : null });
        g.append(s('rect', { class: 'hit', x: x - G / 2, y: y - G / 2, width: G, height: G }));
        if (stone) {
          g.append(s('circle', { class: `stone stone-${stone}${name === this.motion.placed ? ' place' : ''}`, cx: x, cy: y, r: 23.5, fill: `url(#stone-${stone})` }));
          const n = numbers.get(name);
          if (n !== undefined && !small) {
            numbersLayer.append(
              s('text', { class: `num num-${stone}${name === last ? ' num-last' : ''}${n >= 100 ? ' num-3' : ''}`, x, y: y + 1 }, String(n)),
            );
          } else if (name === last) {
            numbersLayer.append(s('circle', { class: 'last-marker', cx: x, cy: y, r: 8 }));
          }
        } else if (legal) {
          g.append(s('circle', { class: `ghost stone-${mover}${marked ? ' marked' : ''}`, cx: x, cy: y, r: 23.5, fill: `url(#stone-${mover})` }));
          if (marked) g.append(s('circle', { class: 'mark-ring', cx: x, cy: y, r: 27 }));
        } else if (pre && !stone) {
          g.append(s('circle', { class: `ghost stone-${opposite(mover)} marked`, cx: x, cy: y, r: 23.5, fill: `url(#stone-${opposite(mover)})` }));
          g.append(s('circle', { class: 'mark-ring premove-ring', cx: x, cy: y, r: 27 }));
        }
        if (input.best === name && !stone) g.append(s('circle', { class: 'best', cx: x, cy: y, r: 19 }));
        svg.append(g);
      }
    }
    if (winLine && winLine.length >= 2) {
      const [x1, y1] = at(winLine[0]!.charCodeAt(0) - 97, Number(winLine[0]!.slice(1)));
      const [x2, y2] = at(winLine.at(-1)!.charCodeAt(0) - 97, Number(winLine.at(-1)!.slice(1)));
      const win = s('g', { class: 'win-line', 'data-win': winLine.join(' ') });
      win.append(s('line', { x1, y1, x2, y2 }));
      for (const cell of winLine) {
        const [x, y] = at(cell.charCodeAt(0) - 97, Number(cell.slice(1)));
        win.append(s('circle', { cx: x, cy: y, r: 26.5 }));
      }
      svg.append(win);
    }
    svg.append(numbersLayer);
    return svg;
  }

  // ————— MiniChess —————

  private drawMiniChess(input: BoardInput): SVGSVGElement {
    const small = this.options.small === true;
    const { snap } = input;
    const grid = gridOf('minichess', input.orientation);
    const squares = minichessSquares(snap.position);
    const last = snap.moves.at(-1);
    const lastSquares = last ? [last.slice(0, 2), last.slice(2, 4)] : [];
    const mover = snap.toMove;
    const markedTo = this.marked?.slice(2, 4);
    const preFrom = this.premove?.slice(0, 2);
    const preTo = this.premove?.slice(2, 4);
    const dests = new Map<string, string>();
    if (this.selected) for (const mv of this.choices(input)) if (mv.startsWith(this.selected)) dests.set(mv.slice(2, 4), mv);
    const movable = new Set(input.playable ? snap.legal.map((mv) => mv.slice(0, 2)) : []);
    const danger = kingInDanger(snap);
    const svg = s('svg', { viewBox: '0 0 500 600', role: 'img', 'aria-label': 'MiniChess board' });
    const centre = new Map<string, [number, number]>();
    const pieces = s('g', { class: 'pieces' });
    const overlay = s('g', { class: 'marks' });
    for (let row = 0; row < 6; row++) {
      for (let col = 0; col < 5; col++) {
        const name = grid.cell(col, row);
        const file = name.charCodeAt(0) - 97;
        const rank = Number(name[1]);
        const x = col * 100;
        const y = row * 100;
        centre.set(name, [x + 50, y + 50]);
        const light = (file + rank) % 2 === 1;
        const code = squares[(rank - 1) * 5 + file] ?? 0;
        const color = code > 0 ? 'w' : code < 0 ? 'b' : null;
        const kind = code === 0 ? null : 'PRNBQK'[Math.abs(code) - 1]!;
        const g = s('g', {
          class: 'cell',
          'data-cell': name,
          'data-piece': color && kind ? color + kind : '',
          'data-movable': movable.has(name) ? 'true' : null,
          'data-dest': dests.has(name) ? 'true' : null,
          'data-capture': dests.has(name) && code !== 0 ? 'true' : null,
          'data-selected': this.selected === name ? 'true' : null,
          'data-marked': markedTo === name ? 'true' : null,
          'data-premove': preTo === name ? 'true' : null,
        });
        g.append(s('rect', { class: `sq ${light ? 'sq-light' : 'sq-dark'}`, x, y, width: 100, height: 100 }));
        if (lastSquares.includes(name)) g.append(s('rect', { class: 'sq-last', x, y, width: 100, height: 100 }));
        if (this.selected === name || markedTo === name || preFrom === name || preTo === name) g.append(s('rect', { class: 'sq-selected', x, y, width: 100, height: 100 }));
        if (danger === name) g.append(s('circle', { class: 'king-danger', cx: x + 50, cy: y + 50, r: 48 }));
        if (!small && col === 0) g.append(s('text', { class: `coord-in ${light ? 'on-light' : 'on-dark'}`, x: x + 7, y: y + 19 }, String(rank)));
        if (!small && row === 5) g.append(s('text', { class: `coord-in ${light ? 'on-light' : 'on-dark'}`, x: x + 88, y: y + 93 }, FILES[file]));
        svg.append(g);
        if (color && kind) {
          const slide = this.motion.slide?.to === name ? this.motion.slide : undefined;
          const use = pieceUse(color, kind, x + 4, y + 4, 92, { class: `piece${slide ? ' slide' : ''}`, 'pointer-events': 'none' });
          if (slide) {
            const from = gridOffset(grid, slide.from);
            if (from) use.setAttribute('style', `--dx:${(from[0] - col) * 100}px;--dy:${(from[1] - row) * 100}px`);
          }
          pieces.append(use);
        }
        const dest = dests.get(name);
        if (dest) {
          if (code !== 0) overlay.append(s('circle', { class: 'dest-capture', cx: x + 50, cy: y + 50, r: 43 }));
          // A pawn reaching the last rank becomes a queen: show the queen it becomes.
          if (isPromotion(squares, dest)) overlay.append(pieceUse(mover === 'white' ? 'w' : 'b', 'Q', x + 16, y + 16, 68, { class: 'promo-ghost', 'data-promotion': 'q' }));
          else if (code === 0) overlay.append(s('circle', { class: 'dest', cx: x + 50, cy: y + 50, r: 14 }));
        }
        if (markedTo === name) overlay.append(s('rect', { class: 'mark-ring', x: x + 5, y: y + 5, width: 90, height: 90, rx: 10 }));
        if (preTo === name) overlay.append(s('rect', { class: 'mark-ring premove-ring', x: x + 5, y: y + 5, width: 90, height: 90, rx: 10 }));
      }
    }
    svg.append(pieces, overlay);
    if (input.best && input.best.length >= 4) {
      const a = centre.get(input.best.slice(0, 2));
      const b = centre.get(input.best.slice(2, 4));
      if (a && b) {
        const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
        const trim = 22 / len;
        svg.append(s('line', { class: 'best-arrow', x1: a[0], y1: a[1], x2: b[0] - (b[0] - a[0]) * trim, y2: b[1] - (b[1] - a[1]) * trim, 'marker-end': 'url(#arrow-head)' }));
      }
    }
    return svg;
  }
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, v));
}

function gridOffset(grid: Grid, cell: string): [number, number] | undefined {
  for (let r = 0; r < grid.rows; r++) for (let c = 0; c < grid.cols; c++) if (grid.cell(c, r) === cell) return [c, r];
  return undefined;
}

function isPromotion(squares: Int8Array, move: string): boolean {
  const fromFile = move.charCodeAt(0) - 97;
  const fromRank = Number(move[1]);
  const toRank = Number(move[3]);
  const code = squares[(fromRank - 1) * 5 + fromFile] ?? 0;
  return Math.abs(code) === 1 && (toRank === 6 || toRank === 1);
}

/** MiniChess has no check rule: a king the opponent could take next is shown, for the side to move. */
function kingInDanger(snap: Snapshot): string | null {
  const position = snap.position as MiniChessPosition;
  if (snap.outcome?.reason === 'king-capture') return kingSquare(position, opposite(position.toMove)); // the king that falls
  if (snap.outcome) return null;
  const turned: MiniChessPosition = { ...position, toMove: opposite(position.toMove) };
  const outcome = GAMES.minichess.rules.outcome(turned);
  if (outcome?.reason !== 'king-capture') return null;
  return kingSquare(position, position.toMove);
}

function kingSquare(position: MiniChessPosition, color: Color): string | null {
  const index = minichessSquares(position).indexOf(color === 'white' ? 6 : -6);
  return index < 0 ? null : `${FILES[index % 5]}${Math.floor(index / 5) + 1}`;
}

/** What changed with one more move: the new disc and flips, the new stone, the piece that moved. */
function motionBetween(before: Snapshot, after: Snapshot): Motion {
  if (after.moves.length !== before.moves.length + 1 || after.game !== before.game) return {};
  const move = after.moves.at(-1)!;
  if (after.game === 'othello') {
    if (move === 'pass') return {};
    const a = (before.position as OthelloPosition).board;
    const b = (after.position as OthelloPosition).board;
    const flips = new Set<string>();
    for (let i = 0; i < 64; i++) if (a[i] !== '-' && b[i] !== '-' && a[i] !== b[i]) flips.add(`${FILES[i % 8]}${Math.floor(i / 8) + 1}`);
    return { placed: move, flips };
  }
  if (after.game === 'gomoku') return { placed: move };
  return { slide: { from: move.slice(0, 2), to: move.slice(2, 4) } };
}

