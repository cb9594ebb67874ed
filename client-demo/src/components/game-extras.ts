import type { GameResult } from '../../../shared/protocol/index.js';
import { RECORD_FORMATS, recordUrl } from '../../../shared/records/index.js';
import type { GameId } from '../../../shared/rules.js';
import type { Position } from '../../../shared/games.js';
import { h, replace, toast } from '../dom.js';
import { capital, reasonText } from '../format.js';
import { CLIENT_GAMES } from '../games/index.js';

/** Pieces of a game screen and a replay beside the board: the game's score, card and counts, the position text, the record. */

/** The result's second line: the game's score (Othello's discs, MiniChess's material), then why it ended. */
export function resultDetail(game: GameId, position: Position, result: GameResult): string {
  const why = capital(reasonText(result));
  const score = CLIENT_GAMES[game].score?.(position);
  return score ? `${score} · ${why}` : why;
}

/** The game's card beside the board (MiniChess's race to the step limit) into `wrap`, hidden for a game without one. */
export function showPanel(wrap: HTMLElement, game: GameId, position: Position, plies: number): void {
  const panel = CLIENT_GAMES[game].panel?.(position, plies);
  wrap.hidden = !panel;
  if (panel) replace(wrap, panel);
}

/** The figure beside a player's name (Othello's discs, MiniChess's material), or null for a game without one. */
export function countBadge(game: GameId, position: Position, color: 'black' | 'white'): HTMLElement | null {
  const count = CLIENT_GAMES[game].count;
  if (!count) return null;
  return h('span', { class: 'count', 'data-testid': `count-${color}`, 'data-count': color, title: count.title }, String(count.of(position)[color]));
}

/** The position in our notation (Othello OBF, Gomoku board text, MiniChess FEN), to copy into an engine or `boardroom bestmove`. */
export class PositionText {
  readonly el: HTMLElement;
  // Focusable: a long position scrolls sideways, and a keyboard must reach it.
  private readonly code = h('code', { class: 'position-text', 'data-testid': 'position-text', tabindex: 0 });
  private text = '';

  constructor() {
    const copy = h('button', { class: 'btn small', type: 'button', 'data-testid': 'copy-position', onclick: () => void copyText(this.text, 'Position copied.') }, 'Copy');
    this.el = h('div', { class: 'position-card' }, h('div', { class: 'card-title' }, 'Position'), h('div', { class: 'position-row' }, this.code, copy));
  }

  update(text: string): void {
    if (text === this.text) return;
    this.text = text;
    replace(this.code, text);
  }
}

/** A link that downloads the game's record in its field's format (GGF, PSQ, PGN). */
export function downloadLink(gameId: string, game: GameId): HTMLAnchorElement {
  const format = RECORD_FORMATS[game];
  return h('a', { class: 'btn', href: recordUrl(gameId, game), download: `boardroom-${game}-${gameId}.${format.extension}`, title: `The game as ${format.label}`, 'data-testid': 'download-record' }, 'Download record');
}

/** Copies to the clipboard and says so; where the page may not, shows the text to copy by hand. */
export async function copyText(text: string, done: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast(done);
  } catch {
    toast(text);
  }
}
