import './othello.css';
import { opposite, type Color } from '../../../shared/color.js';
import type { Position } from '../../../shared/games.js';
import type { OthelloPosition } from '../../../shared/othello/index.js';
import { s } from '../dom.js';
import { FILES, roundToken, type BoardState, type ClientGame } from './client-game.js';

/** Othello in the client: the green board, its discs and their flips, the disc counts. */

export const othello: ClientGame = {
  id: 'othello',
  title: 'Othello',
  blurb: '8×8 · flip discs',
  moves: 'place',
  centre: 'd4',
  area: { squares: [44, 44, 800, 800], view: [888, 888] },
  grid: () => ({ cols: 8, rows: 8, cell: (c, r) => `${FILES[c]}${r + 1}` }),
  occupant(position, square) {
    const c = board(position)[(Number(square.slice(1)) - 1) * 8 + square.charCodeAt(0) - 97];
    return c === 'X' ? 'black disc' : c === 'O' ? 'white disc' : null;
  },
  moveWords: (before, after, who) => `${who} ${after.moves.at(-1)}, ${flippedSquares(before.position, after.position).length} flipped`,
  motion: (before, after) => ({ placed: after.moves.at(-1)!, flips: new Set(flippedSquares(before.position, after.position)) }),
  draw,
  token: (color) => roundToken('disc', color),
  count: { title: 'discs', of: discCounts },
  score(position) {
    const c = discCounts(position);
    return `${c.black} – ${c.white}`;
  },
};

const board = (position: Position) => (position as OthelloPosition).board;

/** The discs of each colour. */
function discCounts(position: Position): Record<Color, number> {
  let black = 0;
  let white = 0;
  for (const c of board(position)) {
    if (c === 'X') black++;
    else if (c === 'O') white++;
  }
  return { black, white };
}

/** The squares whose disc changed colour between two positions. */
function flippedSquares(before: Position, after: Position): string[] {
  const a = board(before);
  const b = board(after);
  const out: string[] = [];
  for (let i = 0; i < 64; i++) if (a[i] !== '-' && b[i] !== '-' && a[i] !== b[i]) out.push(`${FILES[i % 8]}${Math.floor(i / 8) + 1}`);
  return out;
}

function draw(state: BoardState): SVGSVGElement {
  const { snap, small } = state;
  const m = small ? 0 : 44;
  const W = 800 + 2 * m;
  const cells = board(snap.position);
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
      const c = cells[row * 8 + col];
      const disc = c === 'X' ? 'black' : c === 'O' ? 'white' : null;
      const legal = state.playable && snap.legal.includes(name);
      const cx = m + col * 100 + 50;
      const cy = m + row * 100 + 50;
      const marked = state.marked === name;
      const pre = state.premove === name;
      const g = s('g', { class: 'cell', 'data-cell': name, 'data-disc': disc ?? '', 'data-legal': legal ? 'true' : null, 'data-marked': marked ? 'true' : null, 'data-premove': pre ? 'true' : null });
      g.append(s('rect', { class: 'hit', x: cx - 50, y: cy - 50, width: 100, height: 100 }));
      if (disc) {
        const anim = state.motion.placed === name ? ' place' : state.motion.flips?.has(name) ? ' flip' : '';
        if (!small) g.append(s('circle', { class: 'disc-shadow', cx: cx + 1.5, cy: cy + 3.5, r: 41 }));
        g.append(s('circle', { class: `disc disc-${disc}${anim}`, cx, cy, r: 41, fill: `url(#disc-${disc})` }));
        if (name === last) g.append(s('circle', { class: 'last-marker', cx, cy, r: 7 }));
      } else if (legal) {
        g.append(s('circle', { class: `ghost disc-${mover}${marked ? ' marked' : ''}`, cx, cy, r: 41, fill: `url(#disc-${mover})` }));
        g.append(s('circle', { class: `hint hint-${mover}`, cx, cy, r: 11 }));
        if (marked) g.append(s('circle', { class: 'mark-ring', cx, cy, r: 45 }));
      } else if (pre) {
        g.append(s('circle', { class: `ghost disc-${opposite(mover)} marked`, cx, cy, r: 41, fill: `url(#disc-${opposite(mover)})` }));
        g.append(s('circle', { class: 'mark-ring premove-ring', cx, cy, r: 45 }));
      }
      if (state.best === name && !disc) g.append(s('circle', { class: 'best', cx, cy, r: 34 }));
      svg.append(g);
    }
  }
  return svg;
}
