import { formatGomocup, parseMove } from '../gomoku/notation.js';
import { recordName, type GameRecordInput } from './record.js';

/**
 * A Gomoku game in Gomocup's PSQ, the record piskvork writes and Gomocup publishes
 * (docs/rules.md §Notation, "Records out"): a header `Piskvorky 15x15, 11:11, 0`, one line
 * `X,Y,ms` per move with both coordinates from 1 (X the column from `a`, Y the row from the
 * top, as Gomocup's `X,Y` plus one), then the black and the white player's names and a status
 * line `0`. `ms` is the time the move took, 0 when unknown.
 */
export function formatPsq(record: GameRecordInput): string {
  const level = (kind: string) => (kind === 'human' ? 0 : 11); // piskvork: 0 for a person, a program's level otherwise
  const lines = [`Piskvorky 15x15, ${level(record.players.black.kind)}:${level(record.players.white.kind)}, 0`];
  for (const [i, move] of record.moves.entries()) {
    const parsed = parseMove(move);
    if (!parsed.ok) break; // the server stores only moves the rules took
    const [x, y] = formatGomocup(parsed.value).split(',').map(Number);
    lines.push(`${x! + 1},${y! + 1},${Math.round(record.moveMs?.[i] ?? 0)}`);
  }
  // A name must not read as a move line: commas go.
  lines.push(psqName(recordName(record.players.black, 'black')), psqName(recordName(record.players.white, 'white')), '0');
  return `${lines.join('\n')}\n`;
}

function psqName(name: string): string {
  return name.replaceAll(',', ' ');
}
