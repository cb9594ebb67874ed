import './gomoku.css';
import { opposite } from '../../../shared/color.js';
import type { Position } from '../../../shared/games.js';
import { formatMove, GomokuBoard, parseMove, type GomokuPosition } from '../../../shared/gomoku/index.js';
import { s } from '../dom.js';
import { FILES, roundToken, type BoardState, type ClientGame } from './client-game.js';

/** Gomoku in the client: the wooden board, numbered stones, the winning line, Zoom and the exact-five option. */

export const gomoku: ClientGame = {
  id: 'gomoku',
  title: 'Gomoku',
  blurb: '15×15 · five wins',
  moves: 'place',
  centre: 'h8',
  freePlacement: true,
  zoomable: true,
  numbered: true,
  area: { squares: [37, 37, 750, 750], view: [824, 824] },
  grid: () => ({ cols: 15, rows: 15, cell: (c, r) => `${FILES[c]}${15 - r}` }),
  occupant(position, square) {
    const c = stoneAt(position, square.charCodeAt(0) - 97, Number(square.slice(1)));
    return c === 'X' ? 'black stone' : c === 'O' ? 'white stone' : null;
  },
  moveWords: (_before, after, who) => `${who} ${after.moves.at(-1)}`,
  motion: (_before, after) => ({ placed: after.moves.at(-1)! }),
  draw,
  token: (color) => roundToken('stone', color),
  option: { label: 'Exactly five wins (six do not)', testid: 'exact-five', options: { exactFive: true } },
};

/** The stone on a point by file (0–14) and rank (1–15): 'X', 'O' or '.'. */
function stoneAt(position: Position, file: number, rank: number): string {
  return (position as GomokuPosition).board[(15 - rank) * 15 + file] ?? '.';
}

/** The winning line through the last move, by the rules' board, as points from one end to the other. */
function winningLine(position: Position, lastMove: string | undefined): string[] | null {
  const point = lastMove ? parseMove(lastMove) : null;
  if (!point?.ok) return null;
  return GomokuBoard.fromPosition(position as GomokuPosition).winningLine(point.value)?.map(formatMove) ?? null;
}

function draw(state: BoardState): SVGSVGElement {
  const { snap, small } = state;
  const G = 50;
  const m = small ? 34 : 62;
  const W = 14 * G + 2 * m;
  const numbers = new Map<string, number>();
  snap.moves.forEach((mv, i) => numbers.set(mv, i + 1));
  const last = snap.moves.at(-1);
  const winLine = snap.outcome?.reason === 'five' ? winningLine(snap.position, last) : null;
  const svg = s('svg', { viewBox: `0 0 ${W} ${W}`, role: 'img', 'aria-label': 'Gomoku board' });
  svg.append(s('rect', { class: 'wood', x: 0, y: 0, width: W, height: W, rx: small ? 14 : 22 }));
  const at = (file: number, rank: number): [number, number] => [m + file * G, m + (15 - rank) * G];
  const atSquare = (name: string) => at(name.charCodeAt(0) - 97, Number(name.slice(1)));
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
      const c = stoneAt(snap.position, file, rank);
      const stone = c === 'X' ? 'black' : c === 'O' ? 'white' : null;
      const [x, y] = at(file, rank);
      const legal = state.playable && !stone;
      const marked = state.marked === name;
      const pre = state.premove === name;
      const g = s('g', { class: 'cell', 'data-cell': name, 'data-stone': stone ?? '', 'data-legal': legal ? 'true' : null, 'data-marked': marked ? 'true' : null, 'data-premove': pre ? 'true' : null });
      g.append(s('rect', { class: 'hit', x: x - G / 2, y: y - G / 2, width: G, height: G }));
      if (stone) {
        g.append(s('circle', { class: `stone stone-${stone}${name === state.motion.placed ? ' place' : ''}`, cx: x, cy: y, r: 23.5, fill: `url(#stone-${stone})` }));
        const n = numbers.get(name);
        if (n !== undefined && !small) {
          numbersLayer.append(s('text', { class: `num num-${stone}${name === last ? ' num-last' : ''}${n >= 100 ? ' num-3' : ''}`, x, y: y + 1 }, String(n)));
        } else if (name === last) {
          numbersLayer.append(s('circle', { class: 'last-marker', cx: x, cy: y, r: 8 }));
        }
      } else if (legal) {
        g.append(s('circle', { class: `ghost stone-${mover}${marked ? ' marked' : ''}`, cx: x, cy: y, r: 23.5, fill: `url(#stone-${mover})` }));
        if (marked) g.append(s('circle', { class: 'mark-ring', cx: x, cy: y, r: 27 }));
      } else if (pre) {
        g.append(s('circle', { class: `ghost stone-${opposite(mover)} marked`, cx: x, cy: y, r: 23.5, fill: `url(#stone-${opposite(mover)})` }));
        g.append(s('circle', { class: 'mark-ring premove-ring', cx: x, cy: y, r: 27 }));
      }
      if (state.best === name && !stone) g.append(s('circle', { class: 'best', cx: x, cy: y, r: 19 }));
      svg.append(g);
    }
  }
  if (winLine && winLine.length >= 2) {
    const [x1, y1] = atSquare(winLine[0]!);
    const [x2, y2] = atSquare(winLine.at(-1)!);
    const win = s('g', { class: 'win-line', 'data-win': winLine.join(' ') });
    win.append(s('line', { x1, y1, x2, y2 }));
    for (const cell of winLine) {
      const [x, y] = atSquare(cell);
      win.append(s('circle', { cx: x, cy: y, r: 26.5 }));
    }
    svg.append(win);
  }
  svg.append(numbersLayer);
  return svg;
}
