import type { GameResult } from '../../../shared/protocol/index.js';
import { capital, reasonText } from '../format.js';
import { CLIENT_GAMES } from '../games/index.js';
import type { Snapshot } from '../model.js';

/** Words for screen readers: what stands on a square, and what a move did (the game's own words from its `ClientGame`). */

/** What occupies a square, in words ("white disc", "black knight"), or null when it is empty. */
export function occupant(snap: Snapshot, square: string): string | null {
  return CLIENT_GAMES[snap.game].occupant(snap.position, square);
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
  let text = move === 'pass' ? `${who} passes` : CLIENT_GAMES[after.game].moveWords(before, after, who);
  if (after.outcome) {
    const result = { winner: after.outcome.winner, reason: after.outcome.reason } as GameResult;
    text += `. ${result.winner ? `${capital(result.winner)} wins` : 'Draw'}: ${reasonText(result)}`;
  }
  return text;
}
