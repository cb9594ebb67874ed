import './settings-panel.css';
import { h } from '../dom.js';
import { changeSettings, settings, type Settings } from '../settings.js';

const CHOICES: { key: keyof Settings; label: string; hint: string }[] = [
  { key: 'sound', label: 'Sound on moves', hint: 'a short tone on each move' },
  { key: 'confirm', label: 'Confirm moves', hint: 'the first tap marks the move, a second tap or Confirm plays it' },
  { key: 'kingWarning', label: 'King warnings', hint: 'MiniChess: a move that would leave your king to be taken is marked in red' },
  { key: 'premove', label: 'Premove', hint: "choose your move during the opponent's turn; it is played as your turn comes, if legal then" },
];

/** A small disclosure of the player's settings (sound, move confirmation), kept in this browser. */
export function settingsPanel(): HTMLElement {
  const boxes = new Map<keyof Settings, HTMLInputElement>();
  const rows = CHOICES.map(({ key, label, hint }) => {
    const box = h('input', { type: 'checkbox', 'data-setting': key, onchange: () => changeSettings({ [key]: box.checked }) });
    boxes.set(key, box);
    return h('label', { class: 'setting' }, box, h('span', null, h('b', null, label), h('small', null, hint)));
  });
  const fill = (now: Settings): void => {
    for (const [key, box] of boxes) box.checked = now[key];
  };
  fill(settings());
  // Read again on each opening: another tab or page may have changed them.
  return h(
    'details',
    { class: 'settings-panel', 'data-testid': 'settings', ontoggle: () => fill(settings()) },
    h('summary', { class: 'btn small ghost', title: 'Settings', 'aria-label': 'Settings' }, h('span', { 'aria-hidden': 'true' }, '⚙')),
    h('div', { class: 'settings-body' }, ...rows),
  );
}
