import './name-prompt.css';
import { h } from '../dom.js';
import { knownName, setPlayerName } from '../storage.js';

/**
 * Asks a guest for the name to sit down under, prefilled with the one this browser used last;
 * resolves with the name (kept for next time), or null when the guest cancels.
 */
export function askName(): Promise<string | null> {
  return new Promise((resolve) => {
    const input = h('input', {
      type: 'text',
      maxlength: 40,
      value: knownName() ?? '',
      placeholder: 'Your name',
      autocomplete: 'nickname',
      'aria-label': 'Your name',
      'data-testid': 'join-name',
    });
    const note = h('p', { class: 'muted small', role: 'status' });
    const done = (name: string | null): void => {
      backdrop.remove();
      document.removeEventListener('keydown', onKey);
      resolve(name);
    };
    const form = h(
      'form',
      { class: 'modal', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'name-prompt-title', 'data-testid': 'name-prompt' },
      h('h2', { id: 'name-prompt-title' }, 'Your name'),
      h('p', { class: 'muted' }, 'Your opponent and the spectators see it beside your seat.'),
      input,
      note,
      h(
        'div',
        { class: 'row' },
        h('button', { class: 'btn primary', type: 'submit', 'data-testid': 'join-name-ok' }, 'Sit down'),
        h('button', { class: 'btn ghost', type: 'button', 'data-testid': 'join-name-cancel', onclick: () => done(null) }, 'Cancel'),
      ),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const name = input.value.trim().slice(0, 40);
      if (!name) {
        note.textContent = 'Give a name to sit down under.';
        input.focus();
        return;
      }
      setPlayerName(name);
      done(name);
    });
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') done(null);
    };
    const backdrop = h('div', { class: 'modal-backdrop' }, form);
    document.body.appendChild(backdrop);
    document.addEventListener('keydown', onKey);
    input.focus();
    input.select();
  });
}
