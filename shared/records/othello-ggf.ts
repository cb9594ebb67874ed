import { parseObf } from '../othello/notation.js';
import { endedOnTheBoard, hasResult, recordName, utcParts, type GameRecordInput } from './record.js';

/**
 * An Othello game in GGF, the Generic Game Format of GGS that NBoard, Edax and WZebra read
 * (docs/rules.md §Notation, "Records out"): `(;GM[Othello]PC[…]DT[…]PB[…]PW[…]RE[…]TI[…]TY[8]BO[8 … *]B[F5]W[D6]…;)`,
 * each move with the seconds it took when known (`B[F5//1.23]`, GGF's move/evaluation/time).
 * Every field but the board and the moves has a default, so the NBoard bridge writes the game
 * so far with the same function.
 */
export function formatGgf(record: Pick<GameRecordInput, 'start' | 'moves'> & Partial<GameRecordInput>): string {
  const [discs = '', side = 'X'] = record.start.trim().split(/\s+/);
  const board = discs.toUpperCase().replaceAll('X', '*');
  const first = side.toUpperCase() === 'X' ? 0 : 1;
  const time = (i: number): string => {
    const ms = record.moveMs?.[i];
    return ms === null || ms === undefined ? '' : `//${(ms / 1000).toFixed(2)}`; // GGF's move/eval/seconds
  };
  const moves = record.moves.map((m, i) => `${(i + first) % 2 === 0 ? 'B' : 'W'}[${m === 'pass' ? 'PA' : m.toUpperCase()}${time(i)}]`).join('');
  const black = record.players ? recordName(record.players.black, 'black') : 'black';
  const white = record.players ? recordName(record.players.white, 'white') : 'white';
  let date = '';
  if (record.createdAt !== undefined) {
    const t = utcParts(record.createdAt);
    date = `DT[${t.year}.${t.month}.${t.day}_${t.hour}:${t.minute}:${t.second}.UTC]`;
  }
  return `(;GM[Othello]PC[Boardroom]${date}PB[${black}]PW[${white}]RE[${ggfResult(record)}]TI[0//0]TY[8]BO[8 ${board} ${first === 0 ? '*' : 'O'}]${moves};)`;
}

/**
 * GGF's result is for black (the first colour): the disc difference on the last board, `+12.000`;
 * a game not ended by the rules is ±64 with a flag, `:r` resigned (or abandoned), `:t` on time,
 * `:s` agreed or adjudicated (0 for a draw); `?` while there is none.
 */
function ggfResult(record: Partial<GameRecordInput>): string {
  const result = record.result ?? null;
  if (!hasResult(result)) return '?';
  if (endedOnTheBoard(result) && record.position) {
    const parts = parseObf(record.position);
    if (parts.ok) {
      let diff = 0;
      for (const c of parts.value.board) diff += c === 'X' ? 1 : c === 'O' ? -1 : 0;
      return signed(diff);
    }
  }
  const score = result.winner === null ? 0 : result.winner === 'black' ? 64 : -64;
  const flag = result.reason === 'timeout' ? 't' : result.reason === 'resignation' || result.reason === 'abandonment' ? 'r' : 's';
  return `${signed(score)}:${flag}`;
}

function signed(n: number): string {
  return `${n > 0 ? '+' : n < 0 ? '-' : ''}${Math.abs(n).toFixed(3)}`;
}
