import type { Color } from '../../../shared/color.js';
import type { Position } from '../../../shared/games.js';
import type { GameId, GameOptions } from '../../../shared/rules.js';
import { s } from '../dom.js';
import type { Snapshot } from '../model.js';

/**
 * What is particular to one game in this client: its board's drawing and geometry, its words for
 * screen readers, its extras beside the board. Each game implements it once
 * (`games/othello.ts`, `gomoku.ts`, `minichess.ts`); the board, the game screen, the replay and the
 * lobby are generic and ask it. The rules and the game's facts (first mover, winning line, step
 * limit) come from `shared/`.
 */
export interface ClientGame {
  readonly id: GameId;
  readonly title: string;
  /** The lobby tile's line under the title ("8×8 · flip discs"). */
  readonly blurb: string;
  /** `place`: a move is the square a disc or stone goes on. `from-to`: a piece is picked up, then put down (the move names both squares). */
  readonly moves: 'place' | 'from-to';
  /** Where the keyboard starts when there is no legal move or last move to start from. */
  readonly centre: string;
  /** Every empty point is a legal move (Gomoku): the keyboard starts at the last move, not at the first legal one. */
  readonly freePlacement?: boolean;
  /** The board offers Zoom (Gomoku's 15 × 15 on a phone). */
  readonly zoomable?: boolean;
  /** Each stone carries the number of the move that placed it, and its label says it. */
  readonly numbered?: boolean;
  /** Where the squares lie in the large board's SVG viewBox (left, top, width, height), and the viewBox's size. */
  readonly area: { readonly squares: readonly [number, number, number, number]; readonly view: readonly [number, number] };
  /** The squares as shown with `orientation` at the bottom: columns left to right, rows top down. */
  grid(orientation: Color): Grid;
  /** What stands on a square, in words ("white disc", "black knight"), or null when it is empty. */
  occupant(position: Position, square: string): string | null;
  /** A move (not a pass) in words, from the positions before and after it: "Black d3, 2 flipped". */
  moveWords(before: Snapshot, after: Snapshot, who: string): string;
  /** What to animate after one more move (not a pass). */
  motion(before: Snapshot, after: Snapshot): Motion;
  /** The board in SVG. */
  draw(state: BoardState): SVGSVGElement;
  /** SVG definitions its drawings refer to by id (MiniChess's pieces), placed once in the page. */
  defs?(): SVGElement[];
  /** A small disc, stone or king in a player's colour. */
  token(color: Color): SVGSVGElement;
  /** The moves the viewer may premove as the board stands; without it, every empty square. */
  premoves?(snap: Snapshot, color: Color): string[];
  /** A figure beside each player's name (Othello's discs, MiniChess's material). */
  readonly count?: { readonly title: string; of(position: Position): Record<Color, number> };
  /** The score before the reason in the result line ("33 – 31"). */
  score?(position: Position): string;
  /** A card beside the board, live and in the replay (MiniChess's race to the step limit). */
  panel?(position: Position, plies: number): HTMLElement;
  /** Added to the status line of a live game at `ply` (" · ply 12 of 50"). */
  statusNote?(ply: number): string;
  /** A room option offered in the lobby as a checkbox (Gomoku's exact five). */
  readonly option?: { readonly label: string; readonly testid: string; readonly options: GameOptions };
}

/** The squares of a board as shown, and the name of each. */
export interface Grid {
  readonly cols: number;
  readonly rows: number;
  cell(col: number, row: number): string;
}

/** Last-move animation facts, worked out when a board receives the position after one more move. */
export interface Motion {
  readonly placed?: string;
  readonly flips?: ReadonlySet<string>;
  readonly slide?: { from: string; to: string };
}

/** What a drawing shows: the position and the viewer's marks on it. */
export interface BoardState {
  readonly snap: Snapshot;
  /** The viewer may play one of `snap.legal` now. */
  readonly playable: boolean;
  readonly orientation: Color;
  /** A bot's current best move, drawn faintly. */
  readonly best: string | null;
  /** A thumbnail: no coordinates, no move numbers. */
  readonly small: boolean;
  /** The moves the viewer may choose now (the premoves while waiting). */
  readonly choices: readonly string[];
  /** The piece picked up (`from-to` games). */
  readonly selected: string | null;
  /** A move marked by a first tap, waiting for its confirmation. */
  readonly marked: string | null;
  readonly premove: string | null;
  readonly motion: Motion;
}

export const FILES = 'abcdefghijklmno';

/** Where a square is in a grid as shown: column and row. */
export function offsetOf(grid: Grid, square: string): [number, number] | undefined {
  for (let r = 0; r < grid.rows; r++) for (let c = 0; c < grid.cols; c++) if (grid.cell(c, r) === square) return [c, r];
  return undefined;
}


/** A player's token for a game of discs or stones: one in the colour's gradient (`disc-black`, `stone-white`, …). */
export function roundToken(gradient: 'disc' | 'stone', color: Color): SVGSVGElement {
  return s('svg', { viewBox: '0 0 100 100', class: 'token-svg' }, s('circle', { cx: 50, cy: 50, r: 42, fill: `url(#${gradient}-${color})`, stroke: color === 'white' ? '#9a9a94' : '#000', 'stroke-width': 3 }));
}
