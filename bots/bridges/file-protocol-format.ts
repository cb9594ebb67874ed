import { GAMES } from '../../shared/games.js';
import { pointOfBoardIndex, type GomokuPosition } from '../../shared/gomoku/index.js';
import { formatCourseState, parseCourseAnswer, type MiniChessPosition } from '../../shared/minichess/index.js';
import type { OthelloPosition } from '../../shared/othello/index.js';
import { fail, ok, type Problem, type Result } from '../../shared/result.js';
import type { GameId } from '../../shared/rules.js';
import type { EngineTurn } from './engine.js';

/** Why an action file holds no move: nothing in it, nothing readable, or a square off the board. */
export type AnswerProblem = Problem<'silent' | 'garbage' | 'illegal'>;

const CELL_CODES: Readonly<Record<string, number>> = { X: 1, O: 2 };
const SIDE_CODES = { black: 1, white: 2 } as const;
const WIDTHS = { othello: 8, gomoku: 15 } as const;

/** The state file of the turn's position (docs/rules.md §Protocols, "File protocol"). */
export function courseState(turn: Pick<EngineTurn, 'game' | 'position' | 'options' | 'legal'>): string {
  const rules = GAMES[turn.game].rules;
  const parsed = rules.parsePosition(turn.position, turn.options);
  if (!parsed.ok) throw new Error(`The server's position "${turn.position}" is not a ${turn.game} position: ${parsed.error.message}`);
  if (turn.game === 'minichess') return formatCourseState(parsed.value as MiniChessPosition);
  const position = parsed.value as OthelloPosition | GomokuPosition;
  const width = WIDTHS[turn.game];
  // Both boards are kept row by row from the top (Othello's rank 1, Gomoku's rank 15), as the file wants.
  const rows = Array.from({ length: width }, (_, row) => [...position.board.slice(row * width, (row + 1) * width)].map((c) => CELL_CODES[c] ?? 0).join(' '));
  const side = SIDE_CODES[rules.toMove(parsed.value)];
  if (turn.game === 'gomoku') return `${[side, ...rows].join('\n')}\n`;
  const squares = turn.legal.flatMap((move) => {
    const square = rules.parseMove(move);
    return square.ok && square.value >= 0 && square.value < 64 ? [square.value] : []; // the protocol has no pass
  });
  squares.sort((a, b) => a - b);
  return `${[side, ...rows, squares.length, ...squares.map((square) => `${square >> 3} ${square & 7}`)].join('\n')}\n`;
}

/** The last complete answer of an action file, in our notation (its legality is the caller's to check). */
export function readCourseAnswer(game: GameId, text: string): Result<string, AnswerProblem> {
  if (text.trim() === '') return fail('silent', 'the program wrote no answer');
  const shown = JSON.stringify(text.trim().slice(0, 60));
  if (game === 'minichess') {
    const move = parseCourseAnswer(text);
    if (move.ok) return ok(GAMES.minichess.rules.formatMove(move.value));
    return fail(move.error.code === 'move/off_board' ? 'illegal' : 'garbage', `the program answered ${shown}: ${move.error.message}`);
  }
  const numbers = leadingIntegers(text);
  const pairs = Math.floor(numbers.length / 2);
  if (pairs === 0) return fail('garbage', `the program answered ${shown}, not "row col"`);
  const [row, col] = numbers.slice((pairs - 1) * 2, pairs * 2) as [number, number];
  const width = WIDTHS[game];
  if (row < 0 || row >= width || col < 0 || col >= width) return fail('illegal', `the program answered "${row} ${col}", off the ${width}×${width} board`);
  const index = row * width + col;
  return ok(GAMES[game].rules.formatMove(game === 'gomoku' ? pointOfBoardIndex(index) : index));
}

/** Integers from the start of the text up to the first thing that is not one, as MiniChess answers are read. */
function leadingIntegers(text: string): number[] {
  const integer = /\s*([+-]?[0-9]+)/y;
  const numbers: number[] = [];
  for (let match = integer.exec(text); match; match = integer.exec(text)) numbers.push(Number(match[1]));
  return numbers;
}
