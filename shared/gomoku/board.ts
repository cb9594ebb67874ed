import type { MutableBoard } from '../board.js';
import type { Color } from '../color.js';
import { fail, ok, type Result } from '../result.js';
import type { GameOptions, MoveErrorCode, Outcome, PositionError } from '../rules.js';

export const SIZE = 15;
export const POINTS = SIZE * SIZE;
export const FILES = 'abcdefghijklmno';

/** How a point is written in `GomokuPosition.board`: empty, black, white (the index is the cell code). */
export const STONE_CHARS = ['.', 'X', 'O'] as const;
export type StoneChar = (typeof STONE_CHARS)[number];
const STONE_CODES = STONE_CHARS.map((c) => c.charCodeAt(0));
/** `toPosition`'s characters, reused: one string is made from them per call. */
const POSITION_CODES: number[] = new Array<number>(POINTS).fill(0);

/** A Gomoku position as a JSON-safe value. The side to move follows from the stone counts. */
export interface GomokuPosition {
  readonly game: 'gomoku';
  /** 225 characters, rank 15 first and file a first within a rank: `X` black, `O` white, `.` empty. */
  readonly board: string;
  /** Only exactly five wins; a line of six or more does not (Gomocup `rule 1`). */
  readonly exactFive: boolean;
}

const EMPTY = 0;
const BLACK = 1;
const WHITE = 2;
type Cell = typeof EMPTY | typeof BLACK | typeof WHITE;
const COLOR_OF_CELL = [null, 'black', 'white'] as const;

/** The four lines through a point as (file, rank) steps: horizontal, vertical, diagonal, anti-diagonal; direction `d + 4` is the opposite of `d`. */
export const LINE_STEPS = [
  [1, 0],
  [0, 1],
  [1, 1],
  [-1, 1],
] as const;
const DIRECTIONS = [...LINE_STEPS, ...LINE_STEPS.map(([df, dr]) => [-df, -dr] as const)];
const STEP = Int16Array.from(DIRECTIONS, ([df, dr]) => dr * SIZE + df);
/** `REACH[d * POINTS + p]`: how many steps in direction `d` stay on the board from `p` (so runs never wrap a row). */
const REACH = new Uint8Array(DIRECTIONS.length * POINTS);
DIRECTIONS.forEach(([df, dr], d) => {
  for (let point = 0; point < POINTS; point++) {
    let file = point % SIZE;
    let rank = (point - file) / SIZE;
    let steps = 0;
    for (;;) {
      file += df;
      rank += dr;
      if (file < 0 || file >= SIZE || rank < 0 || rank >= SIZE) break;
      steps++;
    }
    REACH[d * POINTS + point] = steps;
  }
});

/** Where a point's character is in `GomokuPosition.board`, which lists rank 15 first. */
export function boardIndexOf(point: number): number {
  const file = point % SIZE;
  return (SIZE - 1 - (point - file) / SIZE) * SIZE + file;
}

/** Reversing the rank order twice is the identity, so the inverse is the same map. */
export const pointOfBoardIndex = boardIndexOf;

export function isPoint(move: number): boolean {
  return Number.isInteger(move) && move >= 0 && move < POINTS;
}

/**
 * Gomoku on a 15×15 board, changed in place. `make` finds a five by looking only along the four
 * lines through the new stone, so no move allocates or scans the whole board.
 */
export class GomokuBoard implements MutableBoard {
  readonly maxMoves = POINTS;
  readonly exactFive: boolean;
  private readonly cells = new Uint8Array(POINTS);
  private readonly history = new Int16Array(POINTS);
  private historyLength = 0;
  private stones = 0;
  private winnerCell: Cell = EMPTY;

  private constructor(exactFive: boolean) {
    this.exactFive = exactFive;
  }

  static empty(options?: GameOptions): GomokuBoard {
    return new GomokuBoard(options?.exactFive === true);
  }

  /** The validating factory for a position from outside (a stored game, a message): checks characters, counts and fives. */
  static load(position: GomokuPosition): Result<GomokuBoard, PositionError> {
    if (position.game !== 'gomoku') {
      return fail('position/syntax', `A position of the game "${String(position.game)}" is not a Gomoku position.`);
    }
    const text: unknown = position.board;
    if (typeof text !== 'string' || text.length !== POINTS) {
      const length = typeof text === 'string' ? `${text.length} characters` : typeof text;
      return fail('position/syntax', `A Gomoku board must be a string of ${POINTS} characters, not ${length}.`);
    }
    const board = new GomokuBoard(position.exactFive === true);
    const count = [0, 0, 0];
    for (let index = 0; index < POINTS; index++) {
      const char = text[index];
      const cell = char === '.' ? EMPTY : char === 'X' ? BLACK : char === 'O' ? WHITE : -1;
      if (cell < 0) {
        return fail('position/syntax', `The board character ${JSON.stringify(char)} at index ${index} is not X, O or ".".`);
      }
      board.cells[pointOfBoardIndex(index)] = cell;
      count[cell]!++;
    }
    const black = count[BLACK]!;
    const white = count[WHITE]!;
    if (black !== white && black !== white + 1) {
      return fail(
        'position/invalid',
        `The board has ${black} black and ${white} white stones; black, who moves first, must have as many as white or one more.`,
      );
    }
    board.stones = black + white;

    const hasFive = [false, false, false];
    for (let point = 0; point < POINTS; point++) {
      if (board.makesFive(point)) hasFive[board.cells[point]!] = true;
    }
    if (hasFive[BLACK] && hasFive[WHITE]) {
      return fail('position/invalid', 'Both black and white have five in a row; the game ends at the first five.');
    }
    const mover = board.moverCell();
    if (hasFive[mover]) {
      const color = COLOR_OF_CELL[mover]!;
      return fail('position/invalid', `${capitalise(color)} has five in a row but is the side to move; only the player who just moved can have made it.`);
    }
    board.winnerCell = hasFive[BLACK] ? BLACK : hasFive[WHITE] ? WHITE : EMPTY;
    return ok(board);
  }

  /** For positions this module made; throws on an invalid one, which is a bug in the caller. */
  static fromPosition(position: GomokuPosition): GomokuBoard {
    const loaded = GomokuBoard.load(position);
    if (!loaded.ok) throw new Error(`Not a valid Gomoku position: ${loaded.error.message}`);
    return loaded.value;
  }

  toPosition(): GomokuPosition {
    for (let index = 0; index < POINTS; index++) POSITION_CODES[index] = STONE_CODES[this.cells[pointOfBoardIndex(index)] as Cell]!;
    // One string made at once: adding 225 characters one by one makes as many partial strings.
    return { game: 'gomoku', board: String.fromCharCode.apply(null, POSITION_CODES), exactFive: this.exactFive };
  }

  /** Derived from the counts, so it is defined even when the game is over. */
  get toMove(): Color {
    return (this.stones & 1) === 0 ? 'black' : 'white';
  }

  get winner(): Color | null {
    return COLOR_OF_CELL[this.winnerCell];
  }

  get isOver(): boolean {
    return this.winnerCell !== EMPTY || this.stones === POINTS;
  }

  get stoneCount(): number {
    return this.stones;
  }

  /** Moves made on this board since it was loaded, oldest first. */
  get movesMade(): number {
    return this.historyLength;
  }

  /** The last move made since loading, or -1. */
  get lastMove(): number {
    return this.historyLength === 0 ? -1 : this.history[this.historyLength - 1]!;
  }

  outcome(): Outcome | null {
    if (this.winnerCell !== EMPTY) return { winner: COLOR_OF_CELL[this.winnerCell], reason: 'five' };
    if (this.stones === POINTS) return { winner: null, reason: 'board-full' };
    return null;
  }

  stoneAt(point: number): Color | null {
    return COLOR_OF_CELL[(this.cells[point] ?? EMPTY) as Cell];
  }

  /** Why `move` cannot be played now, if it cannot (`by` is the colour trying, when known). */
  problemWith(move: number, by?: Color): MoveErrorCode | undefined {
    if (this.isOver) return 'move/game_over';
    if (by !== undefined && by !== this.toMove) return 'move/not_your_turn';
    if (!isPoint(move)) return 'move/off_board';
    if (this.cells[move] !== EMPTY) return 'move/occupied';
    return undefined;
  }

  generateMoves(out: Int32Array, offset: number): number {
    if (this.isOver) return 0;
    let n = offset;
    for (let point = 0; point < POINTS; point++) if (this.cells[point] === EMPTY) out[n++] = point;
    return n - offset;
  }

  countMoves(): number {
    return this.isOver ? 0 : POINTS - this.stones;
  }

  make(move: number): void {
    if (this.problemWith(move) !== undefined) throw new Error(`GomokuBoard.make: move ${move} is not legal here.`);
    const stone = this.moverCell();
    this.cells[move] = stone;
    this.history[this.historyLength++] = move;
    this.stones++;
    if (this.makesFive(move)) this.winnerCell = stone;
  }

  unmake(): void {
    if (this.historyLength === 0) throw new Error('GomokuBoard.unmake: no move made since loading.');
    const move = this.history[--this.historyLength]!;
    this.cells[move] = EMPTY;
    this.stones--;
    // A move is only made while nobody has won, so taking one back always clears the winner.
    this.winnerCell = EMPTY;
  }

  /** Does the stone on `point` stand in a winning line (five or more; exactly five with `exactFive`)? */
  makesFive(point: number): boolean {
    const stone = this.cells[point];
    if (stone === undefined || stone === EMPTY) return false;
    for (let line = 0; line < LINE_STEPS.length; line++) {
      if (this.wins(1 + this.run(point, line, stone) + this.run(point, line + LINE_STEPS.length, stone))) return true;
    }
    return false;
  }

  /** The winning line through the stone on `point`, as its points from one end to the other, or null when it stands in none. */
  winningLine(point: number): number[] | null {
    const stone = this.cells[point];
    if (stone === undefined || stone === EMPTY) return null;
    for (let line = 0; line < LINE_STEPS.length; line++) {
      const back = this.run(point, line + LINE_STEPS.length, stone);
      const length = 1 + back + this.run(point, line, stone);
      if (this.wins(length)) {
        const step = STEP[line]!;
        return Array.from({ length }, (_, i) => point + (i - back) * step);
      }
    }
    return null;
  }

  /** Does a run of `length` stones win: five, or more unless only exactly five wins? */
  private wins(length: number): boolean {
    return length === 5 || (length > 5 && !this.exactFive);
  }

  /** How many stones of the same colour follow `point` in `direction`. */
  private run(point: number, direction: number, stone: number): number {
    const step = STEP[direction]!;
    const reach = REACH[direction * POINTS + point]!;
    let length = 0;
    while (length < reach) {
      point += step;
      if (this.cells[point] !== stone) break;
      length++;
    }
    return length;
  }

  private moverCell(): Cell {
    return (this.stones & 1) === 0 ? BLACK : WHITE;
  }
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
