import type { GameResult } from '../../../shared/protocol/index.js';
import { capital, reasonText } from '../format.js';
import { gomokuStone, minichessSquares, type Snapshot } from '../model.js';
import type { OthelloPosition } from '../../../shared/othello/index.js';

/** Words for screen readers: what stands on a square, and what a move did. */

const PIECE_NAMES: Record<string, string> = { P: 'pawn', R: 'rook', N: 'knight', B: 'bishop', Q: 'queen', K: 'king' };

/** What occupies a square, in words ("white disc", "black knight"), or null when it is empty. */
export function occupant(snap: Snapshot, square: string): string | null {
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square.slice(1));
  if (snap.game === 'othello') {
    const c = (snap.position as OthelloPosition).board[(rank - 1) * 8 + file];
    return c === 'X' ? 'black disc' : c === 'O' ? 'white disc' : null;
  }
  if (snap.game === 'gomoku') {
    const c = gomokuStone(snap.position, file, rank);
    return c === 'X' ? 'black stone' : c === 'O' ? 'white stone' : null;
  }
  const code = minichessSquares(snap.position)[(rank - 1) * 5 + file] ?? 0;
  if (code === 0) return null;
  return `${code > 0 ? 'white' : 'black'} ${PIECE_NAMES['PRNBQK'[Math.abs(code) - 1]!]}`;
}

/** Marks a square may carry besides its occupant, in the order they are read. */
export interface SquareMarks {
  readonly legal?: boolean;
  readonly movable?: boolean;
  readonly selected?: boolean;
  readonly capture?: boolean;
  readonly marked?: boolean;
  readonly premove?: boolean;
  readonly last?: boolean;
  readonly number?: number;
}

/** "d3, empty, legal move", "e5, white disc, last move", "b2, white pawn, can move". */
export function squareLabel(snap: Snapshot, square: string, marks: SquareMarks): string {
  const parts = [square, occupant(snap, square) ?? 'empty'];
  if (marks.number !== undefined) parts.push(`move ${marks.number}`);
  if (marks.last) parts.push('last move');
  if (marks.selected) parts.push('selected');
  if (marks.movable) parts.push('can move');
  if (marks.capture) parts.push('capture');
  else if (marks.legal) parts.push('legal move');
  if (marks.marked) parts.push('marked, press again to play');
  if (marks.premove) parts.push('premove');
  return parts.join(', ');
}

/** One move said in words, from the positions before and after it: "Black d3, 2 flipped". */
export function moveSentence(before: Snapshot, after: Snapshot): string {
  const move = after.moves.at(-1) ?? '';
  const who = capital(before.toMove);
  let text: string;
  if (move === 'pass') text = `${who} passes`;
  else if (after.game === 'othello') {
    const a = (before.position as OthelloPosition).board;
    const b = (after.position as OthelloPosition).board;
    let flipped = 0;
    for (let i = 0; i < 64; i++) if (a[i] !== '-' && a[i] !== b[i]) flipped++;
    text = `${who} ${move}, ${flipped} flipped`;
  } else if (after.game === 'minichess') {
    const from = move.slice(0, 2);
    const to = move.slice(2, 4);
    const piece = occupant(before, from)?.split(' ')[1] ?? 'piece';
    const taken = occupant(before, to);
    const promoted = occupant(after, to)?.split(' ')[1];
    text = `${who} ${piece} ${from} to ${to}${taken ? `, takes ${taken.split(' ')[1]}` : ''}${promoted && promoted !== piece ? `, becomes a ${promoted}` : ''}`;
  } else text = `${who} ${move}`;
  if (after.outcome) {
    const result = { winner: after.outcome.winner, reason: after.outcome.reason } as GameResult;
    text += `. ${result.winner ? `${capital(result.winner)} wins` : 'Draw'}: ${reasonText(result)}`;
  }
  return text;
}
