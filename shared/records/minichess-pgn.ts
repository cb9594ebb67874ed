import { parsePosition } from '../minichess/notation.js';
import { clockAfterMoves } from '../protocol/moves.js';
import { clockText, hasResult, recordName, utcParts, type GameRecordInput } from './record.js';

/** PGN's export format keeps movetext lines under 80 characters. */
const LINE = 79;

/**
 * A MiniChess game as PGN with our FEN (docs/rules.md §Notation, "Records out"): the seven tags
 * of the roster, then `Variant`, `SetUp`, `FEN` (our position text), `Termination`, `Reason`
 * (ours) and `BoardroomId`; the movetext numbers moves as chess does (white first) and writes each move in
 * our notation (`b2b3`, from-square and to-square), each followed, when its time is known, by a
 * comment with the clock left after it and the time it took (`{[%clk 0:04:58] [%emt 0:00:02.5]}`,
 * `%clk` only with a time control), ending with the result.
 */
export function formatPgn(record: GameRecordInput): string {
  const t = utcParts(record.createdAt);
  const result = pgnResult(record);
  const tags: [string, string][] = [
    ['Event', 'Boardroom MiniChess'],
    ['Site', 'Boardroom'],
    ['Date', `${t.year}.${t.month}.${t.day}`],
    ['Round', '-'],
    ['White', recordName(record.players.white, 'White')],
    ['Black', recordName(record.players.black, 'Black')],
    ['Result', result],
    ['Variant', 'Boardroom MiniChess 6x5'],
    ['SetUp', '1'],
    ['FEN', record.start],
    ['Termination', termination(record)],
    ['Reason', record.result?.reason ?? '-'],
    ['BoardroomId', record.id],
  ];
  const start = parsePosition(record.start);
  let ply = start.ok ? start.value.ply : 1;
  let white = start.ok ? start.value.toMove === 'white' : true;
  const moveMs = record.moveMs ?? [];
  const clocks = clockAfterMoves(record.timeControl ?? { kind: 'none' }, moveMs, white ? 'white' : 'black');
  const words: string[] = [];
  for (const [i, move] of record.moves.entries()) {
    const number = Math.ceil(ply / 2);
    if (white) words.push(`${number}.`);
    else if (i === 0) words.push(`${number}...`);
    words.push(move);
    const ms = moveMs[i];
    const clock = clocks[i];
    if (ms !== null && ms !== undefined) words.push(`{${clock !== null && clock !== undefined ? `[%clk ${clockText(clock)}] ` : ''}[%emt ${clockText(ms)}]}`);
    ply++;
    white = !white;
  }
  words.push(result);
  return `${tags.map(([k, v]) => `[${k} "${v}"]`).join('\n')}\n\n${wrap(words)}\n`;
}

/** PGN's standard Termination values; `Reason` carries ours (`step-limit`, `king-capture`, …). */
function termination(record: GameRecordInput): string {
  switch (hasResult(record.result) ? record.result.reason : null) {
    case null:
      return 'unterminated';
    case 'timeout':
      return 'time forfeit';
    case 'abandonment':
      return 'abandoned';
    case 'adjudication':
      return 'adjudication';
    default:
      return 'normal';
  }
}

/** `1-0`, `0-1`, `1/2-1/2`, or `*` for a game with no result. */
function pgnResult(record: GameRecordInput): string {
  const result = record.result;
  if (!hasResult(result)) return '*';
  return result.winner === 'white' ? '1-0' : result.winner === 'black' ? '0-1' : '1/2-1/2';
}

function wrap(words: readonly string[]): string {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line && line.length + 1 + word.length > LINE) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}
