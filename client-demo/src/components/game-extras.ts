import type { Color } from '../../../shared/color.js';
import { STEP_LIMIT } from '../../../shared/minichess/index.js';
import type { GameResult } from '../../../shared/protocol/index.js';
import { RECORD_FORMATS, recordUrl } from '../../../shared/records/index.js';
import type { GameId } from '../../../shared/rules.js';
import type { Position } from '../../../shared/games.js';
import { h, replace, toast } from '../dom.js';
import { capital, reasonText } from '../format.js';
import { discCounts, materialCounts } from '../model.js';

/** Pieces of a game screen and a replay beside the board: the material race, the position text, the record. */

/** The result's second line: Othello's disc score or MiniChess's material, then why it ended. */
export function resultDetail(game: GameId, position: Position, result: GameResult): string {
  const why = capital(reasonText(result));
  if (game === 'othello') {
    const c = discCounts(position);
    return `${c.black} – ${c.white} · ${why}`;
  }
  if (game === 'minichess') {
    const m = materialCounts(position);
    return `Material ${m.white} – ${m.black} · ${why}`;
  }
  return why;
}

/**
 * MiniChess's race to the step limit: both sides' material and the plies played out of the
 * limit, after which the side with more material wins (docs/rules.md §MiniChess).
 */
export function materialPanel(position: Position, plies: number): HTMLElement {
  const m = materialCounts(position);
  const leader: Color | null = m.white > m.black ? 'white' : m.black > m.white ? 'black' : null;
  const side = (color: Color) =>
    h('span', { class: `material-side${leader === color ? ' ahead' : ''}`, 'data-testid': `material-${color}` }, h('small', null, capital(color)), h('b', null, String(m[color])));
  const played = Math.min(plies, STEP_LIMIT);
  return h(
    'div',
    { class: 'material-card', 'data-testid': 'material', 'data-plies': plies, 'data-limit': STEP_LIMIT },
    h('div', { class: 'card-title' }, 'Material', h('span', { class: 'muted' }, ` · decides at ply ${STEP_LIMIT}`)),
    h('div', { class: 'material-row' }, side('white'), h('span', { class: 'material-diff' }, leader ? `${capital(leader)} +${Math.abs(m.white - m.black)}` : 'level'), side('black')),
    h(
      'div',
      { class: 'ply-meter', role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': STEP_LIMIT, 'aria-valuenow': played, 'aria-label': 'plies played' },
      h('i', { style: `width:${(100 * played) / STEP_LIMIT}%` }),
    ),
    h('div', { class: 'muted small', 'data-testid': 'ply-count' }, `${played} of ${STEP_LIMIT} plies played`),
  );
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
