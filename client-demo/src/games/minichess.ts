import './minichess.css';
import { opposite, type Color } from '../../../shared/color.js';
import { GAMES, type Position } from '../../../shared/games.js';
import { kingCapture, MiniChessBoard, parsePlacement, STEP_LIMIT, type MiniChessPosition } from '../../../shared/minichess/index.js';
import { settings } from '../settings.js';
import { h, s } from '../dom.js';
import { capital } from '../format.js';
import type { Snapshot } from '../model.js';
import { FILES, offsetOf, type BoardState, type ClientGame, type Grid } from './client-game.js';

/**
 * MiniChess in the client: the 5 × 6 board turned for black, pieces picked up and put down, the
 * king in danger, the promotion shown, the material and the race to the step limit.
 */

export const minichess: ClientGame = {
  id: 'minichess',
  title: 'MiniChess',
  blurb: '6×5 · take the king',
  moves: 'from-to',
  centre: 'c3',
  area: { squares: [0, 0, 500, 600], view: [500, 600] },
  grid,
  occupant(position, square) {
    const code = squaresOf(position)[indexOf(square)] ?? 0;
    if (code === 0) return null;
    return `${code > 0 ? 'white' : 'black'} ${PIECE_NAMES['PRNBQK'[Math.abs(code) - 1]!]}`;
  },
  moveWords(before, after, who) {
    const move = after.moves.at(-1) ?? '';
    const from = move.slice(0, 2);
    const to = move.slice(2, 4);
    const kind = (snap: Snapshot, square: string) => minichess.occupant(snap.position, square)?.split(' ')[1];
    const piece = kind(before, from) ?? 'piece';
    const taken = kind(before, to);
    const promoted = kind(after, to);
    return `${who} ${piece} ${from} to ${to}${taken ? `, takes ${taken}` : ''}${promoted && promoted !== piece ? `, becomes a ${promoted}` : ''}`;
  },
  motion(_before, after) {
    const move = after.moves.at(-1)!;
    return { slide: { from: move.slice(0, 2), to: move.slice(2, 4) } };
  },
  draw,
  defs: pieceSymbols,
  token: (color) => s('svg', { viewBox: '0 0 100 100', class: 'token-svg' }, pieceUse(color === 'white' ? 'w' : 'b', 'K', 0, 0, 100)),
  /** The moves the viewer's pieces have as the board stands. */
  premoves(snap, color) {
    const { rules } = GAMES.minichess;
    return rules.legalMoves({ ...(snap.position as MiniChessPosition), toMove: color }).map((m) => rules.formatMove(m));
  },
  count: { title: 'material', of: materialCounts },
  score: (position) => {
    const m = materialCounts(position);
    return `Material ${m.white} – ${m.black}`;
  },
  panel: materialPanel,
  statusNote: (ply) => ` · ply ${ply + 1} of ${STEP_LIMIT}`,
};

const PIECE_NAMES: Record<string, string> = { P: 'pawn', R: 'rook', N: 'knight', B: 'bishop', Q: 'queen', K: 'king' };

/** Piece codes by square (a1 = 0, b1 = 1, …; positive white, negative black). */
function squaresOf(position: Position): Int8Array {
  const parsed = parsePlacement((position as MiniChessPosition).board);
  return parsed.ok ? parsed.value : new Int8Array(30);
}

const indexOf = (square: string) => (Number(square[1]) - 1) * 5 + square.charCodeAt(0) - 97;

/** Each side's material by the rules' piece values (the king's 100 included), which decides the game at the step limit. */
function materialCounts(position: Position): Record<Color, number> {
  const board = MiniChessBoard.fromPosition(position as MiniChessPosition);
  return { white: board.material('white'), black: board.material('black') };
}

function grid(orientation: Color): Grid {
  return orientation === 'white'
    ? { cols: 5, rows: 6, cell: (c, r) => `${FILES[c]}${6 - r}` }
    : { cols: 5, rows: 6, cell: (c, r) => `${FILES[4 - c]}${r + 1}` };
}

function isPromotion(squares: Int8Array, move: string): boolean {
  const toRank = Number(move[3]);
  return Math.abs(squares[indexOf(move)] ?? 0) === 1 && (toRank === 6 || toRank === 1);
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

/** The destinations (of `moves`, the piece picked up) after which the opponent could take the mover's king. */
function leavesKingTaken(snap: Snapshot, moves: readonly string[]): Set<string> {
  const { rules } = GAMES.minichess;
  const unsafe = new Set<string>();
  for (const move of moves) {
    const parsed = rules.parseMove(move);
    if (!parsed.ok || rules.check(snap.position as MiniChessPosition, parsed.value)) continue;
    const after = rules.play(snap.position as MiniChessPosition, parsed.value);
    if (rules.outcome(after)?.reason === 'king-capture') unsafe.add(move.slice(2, 4));
  }
  return unsafe;
}

/** Piece codes after one move's piece goes from its square to the other (no promotion: the king's taker). */
function played(squares: Int8Array, move: string): Int8Array {
  const after = squares.slice();
  after[indexOf(move.slice(2, 4))] = after[indexOf(move.slice(0, 2))]!;
  after[indexOf(move.slice(0, 2))] = 0;
  return after;
}

function kingSquare(position: MiniChessPosition, color: Color): string | null {
  const index = squaresOf(position).indexOf(color === 'white' ? 6 : -6);
  return index < 0 ? null : `${FILES[index % 5]}${Math.floor(index / 5) + 1}`;
}

function draw(state: BoardState): SVGSVGElement {
  const { snap, small, selected } = state;
  const shown = grid(state.orientation);
  // "The king falls": the move that takes it is drawn played, its taker on the king's square.
  const taking = snap.outcome?.reason === 'king-capture' ? kingCapture(snap.position as MiniChessPosition) : null;
  const squares = taking ? played(squaresOf(snap.position), taking) : squaresOf(snap.position);
  const last = taking ?? snap.moves.at(-1);
  const lastSquares = last ? [last.slice(0, 2), last.slice(2, 4)] : [];
  const mover = snap.toMove;
  const markedTo = state.marked?.slice(2, 4);
  const preFrom = state.premove?.slice(0, 2);
  const preTo = state.premove?.slice(2, 4);
  const dests = new Map<string, string>();
  if (selected) for (const mv of state.choices) if (mv.startsWith(selected)) dests.set(mv.slice(2, 4), mv);
  const movable = new Set(state.playable ? snap.legal.map((mv) => mv.slice(0, 2)) : []);
  const unsafe = state.playable && settings().kingWarning ? leavesKingTaken(snap, [...dests.values()]) : new Set<string>();
  const danger = kingInDanger(snap);
  const svg = s('svg', { viewBox: '0 0 500 600', role: 'img', 'aria-label': 'MiniChess board' });
  const centre = new Map<string, [number, number]>();
  const pieces = s('g', { class: 'pieces' });
  const overlay = s('g', { class: 'marks' });
  for (let row = 0; row < 6; row++) {
    for (let col = 0; col < 5; col++) {
      const name = shown.cell(col, row);
      const file = name.charCodeAt(0) - 97;
      const rank = Number(name[1]);
      const x = col * 100;
      const y = row * 100;
      centre.set(name, [x + 50, y + 50]);
      const light = (file + rank) % 2 === 1;
      const code = squares[indexOf(name)] ?? 0;
      const color = code > 0 ? 'w' : code < 0 ? 'b' : null;
      const kind = code === 0 ? null : 'PRNBQK'[Math.abs(code) - 1]!;
      const g = s('g', {
        class: 'cell',
        'data-cell': name,
        'data-piece': color && kind ? color + kind : '',
        'data-movable': movable.has(name) ? 'true' : null,
        'data-dest': dests.has(name) ? 'true' : null,
        'data-capture': dests.has(name) && code !== 0 ? 'true' : null,
        'data-exposes-king': unsafe.has(name) ? 'true' : null,
        'data-king-taken': taking?.slice(2, 4) === name ? 'true' : null,
        'data-selected': selected === name ? 'true' : null,
        'data-marked': markedTo === name ? 'true' : null,
        'data-premove': preTo === name ? 'true' : null,
      });
      g.append(s('rect', { class: `sq ${light ? 'sq-light' : 'sq-dark'}`, x, y, width: 100, height: 100 }));
      if (lastSquares.includes(name)) g.append(s('rect', { class: 'sq-last', x, y, width: 100, height: 100 }));
      if (selected === name || markedTo === name || preFrom === name || preTo === name) g.append(s('rect', { class: 'sq-selected', x, y, width: 100, height: 100 }));
      if (danger === name) g.append(s('circle', { class: 'king-danger', cx: x + 50, cy: y + 50, r: 48 }));
      if (!small && col === 0) g.append(s('text', { class: `coord-in ${light ? 'on-light' : 'on-dark'}`, x: x + 7, y: y + 19 }, String(rank)));
      if (!small && row === 5) g.append(s('text', { class: `coord-in ${light ? 'on-light' : 'on-dark'}`, x: x + 88, y: y + 93 }, FILES[file]));
      svg.append(g);
      if (color && kind) {
        const slide = state.motion.slide?.to === name ? state.motion.slide : undefined;
        const use = pieceUse(color, kind, x + 4, y + 4, 92, { class: `piece${slide ? ' slide' : ''}`, 'pointer-events': 'none' });
        if (slide) {
          const from = offsetOf(shown, slide.from);
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
      if (unsafe.has(name)) overlay.append(s('rect', { class: 'dest-unsafe', x: x + 6, y: y + 6, width: 88, height: 88, rx: 12 }));
      if (markedTo === name) overlay.append(s('rect', { class: 'mark-ring', x: x + 5, y: y + 5, width: 90, height: 90, rx: 10 }));
      if (preTo === name) overlay.append(s('rect', { class: 'mark-ring premove-ring', x: x + 5, y: y + 5, width: 90, height: 90, rx: 10 }));
    }
  }
  svg.append(pieces, overlay);
  if (state.best && state.best.length >= 4) {
    const a = centre.get(state.best.slice(0, 2));
    const b = centre.get(state.best.slice(2, 4));
    if (a && b) {
      const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
      const trim = 22 / len;
      svg.append(s('line', { class: 'best-arrow', x1: a[0], y1: a[1], x2: b[0] - (b[0] - a[0]) * trim, y2: b[1] - (b[1] - a[1]) * trim, 'marker-end': 'url(#arrow-head)' }));
    }
  }
  return svg;
}

/**
 * The race to the step limit: both sides' material and the plies played out of the limit, after
 * which the side with more material wins (docs/rules.md §MiniChess).
 */
function materialPanel(position: Position, plies: number): HTMLElement {
  const m = materialCounts(position);
  const leader: Color | null = m.white > m.black ? 'white' : m.black > m.white ? 'black' : null;
  const side = (color: Color) =>
    h('span', { class: `material-side${leader === color ? ' ahead' : ''}`, 'data-testid': `material-${color}` }, h('small', null, capital(color)), h('b', null, String(m[color])));
  const played = Math.min(plies, STEP_LIMIT);
  return h(
    'div',
    { class: 'material-card', 'data-testid': 'material', 'data-plies': plies, 'data-limit': STEP_LIMIT },
    h('div', { class: 'card-title' }, 'Material', h('span', { class: 'muted' }, ` · decides at ply ${STEP_LIMIT}`)),
    h('div', { class: 'material-row' }, side('white'), h('span', { class: 'material-diff' }, leader ? `${capital(leader)} +${Math.abs(m.white - m.black)}` : 'level'), side('black')),
    h(
      'div',
      { class: 'ply-meter', role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': STEP_LIMIT, 'aria-valuenow': played, 'aria-label': 'plies played' },
      h('i', { style: `width:${(100 * played) / STEP_LIMIT}%` }),
    ),
    h('div', { class: 'muted small', 'data-testid': 'ply-count' }, `${played} of ${STEP_LIMIT} plies played`),
  );
}

type Part = { d: string; tone?: 'body' | 'trim' | 'line' } | { circle: [number, number, number]; tone?: 'body' | 'trim' | 'line' };

// MiniChess's pieces, drawn for this client on a 100 × 100 grid: simple, geometric shapes that stay crisp at any size.
const BASE: Part = { d: 'M24 81.5 Q24 79 27 79 H73 Q76 79 76 81.5 V86 Q76 89 73 89 H27 Q24 89 24 86 Z', tone: 'trim' };

const PIECES: Record<string, Part[]> = {
  P: [
    { d: 'M35 80 Q35 64 45 53 H55 Q65 64 65 80 Z' },
    { d: 'M38 45.5 Q38 43 41 43 H59 Q62 43 62 45.5 V49 Q62 52 59 52 H41 Q38 52 38 49 Z', tone: 'trim' },
    { circle: [50, 31, 12.5] },
    BASE,
  ],
  R: [
    { d: 'M35 80 L38 47 H62 L65 80 Z' },
    { d: 'M33 41 H67 V48 H33 Z', tone: 'trim' },
    { d: 'M30 41 V20 H38.5 V27 H45.5 V20 H54.5 V27 H61.5 V20 H70 V41 Z' },
    { d: 'M40 62 H60', tone: 'line' },
    BASE,
  ],
  N: [
    {
      d:
        'M32 80 C33 70 37 64 42 58 C37 58 31 57 27 54 C22 51 20 46 23 41 L38 27 C40 22 43 18 45 13 ' +
        'L51 21 C64 23 74 36 73 54 C72 64 69 72 69 80 Z',
    },
    { d: 'M56 30 C64 38 67 50 64 64', tone: 'line' },
    { circle: [42.5, 30, 2.6], tone: 'line' },
    { circle: [27.5, 46, 1.8], tone: 'line' },
    BASE,
  ],
  B: [
    { d: 'M37 80 Q40 67 45 61 H55 Q60 67 63 80 Z' },
    { d: 'M37 55.5 Q37 53 40 53 H60 Q63 53 63 55.5 V59 Q63 62 60 62 H40 Q37 62 37 59 Z', tone: 'trim' },
    { d: 'M50 19 C61 27 66 38 61 49 Q50 55 39 49 C34 38 39 27 50 19 Z' },
    { d: 'M55 30 L46 41', tone: 'line' },
    { circle: [50, 14, 4.5] },
    BASE,
  ],
  Q: [
    { d: 'M34 80 Q38 64 43 58 H57 Q62 64 66 80 Z' },
    { d: 'M35 57 L29 33 L39 47 L41 26 L47 45 L50 21 L53 45 L59 26 L61 47 L71 33 L65 57 Z' },
    { d: 'M35 55.5 Q35 53 38 53 H62 Q65 53 65 55.5 V59.5 Q65 62 62 62 H38 Q35 62 35 59.5 Z', tone: 'trim' },
    { circle: [29, 32, 3.8] },
    { circle: [41, 24.5, 3.8] },
    { circle: [50, 19, 3.8] },
    { circle: [59, 24.5, 3.8] },
    { circle: [71, 32, 3.8] },
    BASE,
  ],
  K: [
    { d: 'M34 80 Q38 64 43 58 H57 Q62 64 66 80 Z' },
    { d: 'M35 57 L30 37 Q40 29 50 38 Q60 29 70 37 L65 57 Z' },
    { d: 'M35 55.5 Q35 53 38 53 H62 Q65 53 65 55.5 V59.5 Q65 62 62 62 H38 Q35 62 35 59.5 Z', tone: 'trim' },
    { d: 'M47 11 H53 V17 H59 V23 H53 V33 H47 V23 H41 V17 H47 Z' },
    BASE,
  ],
};

const TONES = {
  w: { body: '#fbfbfa', trim: '#e4e2dc', line: '#1d2025', stroke: '#1d2025' },
  b: { body: '#30343b', trim: '#4b515b', line: '#d9dce1', stroke: '#0c0d10' },
} as const;

function pieceSymbol(color: 'w' | 'b', kind: string): SVGSymbolElement {
  const tone = TONES[color];
  const parts = PIECES[kind]!.map((part) => {
    const which = part.tone ?? 'body';
    const common =
      which === 'line'
        ? { fill: 'circle' in part ? tone.line : 'none', stroke: tone.line, 'stroke-width': 3, 'stroke-linecap': 'round' }
        : { fill: tone[which], stroke: tone.stroke, 'stroke-width': 3.2, 'stroke-linejoin': 'round' };
    return 'circle' in part ? s('circle', { cx: part.circle[0], cy: part.circle[1], r: part.circle[2], ...common, ...(which === 'line' ? { stroke: 'none' } : {}) }) : s('path', { d: part.d, ...common });
  });
  return s('symbol', { id: `piece-${color}${kind}`, viewBox: '0 0 100 100' }, ...parts);
}

/** The twelve pieces as symbols (`piece-wK`, `piece-bP`, …), which the boards refer to. */
function pieceSymbols(): SVGSymbolElement[] {
  return (['w', 'b'] as const).flatMap((c) => Object.keys(PIECES).map((k) => pieceSymbol(c, k)));
}

/** The <use> of a piece symbol: `color` 'w'/'b', `kind` one of PRNBQK. */
function pieceUse(color: 'w' | 'b', kind: string, x: number, y: number, size: number, extra: Record<string, string | number> = {}): SVGUseElement {
  return s('use', { href: `#piece-${color}${kind}`, x, y, width: size, height: size, ...extra });
}
