import { opposite, type Color } from '../../../shared/color.js';
import { clockAfterMoves, type TimeControl } from '../../../shared/protocol/index.js';
import { h, replace, s } from '../dom.js';
import { capital, clockText } from '../format.js';
import './move-times.css';

/** A move's time, short enough for the move list on a phone: `0.4s`, `12s`, `1:05`. */
export function spentText(ms: number): string {
  if (ms < 10_000) return `${(Math.floor(ms / 100) / 10).toFixed(1)}s`;
  if (ms < 60_000) return `${Math.floor(ms / 1000)}s`;
  return clockText(ms);
}

/**
 * The time a move took, to put beside it in a move list: its text, or `–` when the game kept no
 * time for it; the title says it in words, with the clock left after it when there is one.
 */
export function moveTimeTag(ms: number | null | undefined, clockLeft?: number | null): HTMLElement {
  if (ms === null || ms === undefined) return h('small', { class: 'mv-time unknown', title: 'Time not kept for this move' }, '–');
  const left = clockLeft === null || clockLeft === undefined ? '' : `, ${clockText(clockLeft)} left`;
  return h('small', { class: 'mv-time', 'data-ms': ms, title: `Took ${(ms / 1000).toFixed(1)} s${left}` }, spentText(ms));
}

export interface MoveTimesPanel {
  readonly el: HTMLElement;
  /** The replay moved to `step`: the bar of the move that led there is marked. */
  setStep(step: number): void;
}

const W = 320;
const H = 72;

/**
 * The clock history under a replay: a bar per move (the first mover's up, the other's down, as
 * tall as the move was long; a click goes to that move), each side's total, and each move's time
 * put beside it in `list` (`.mv[data-step]` buttons).
 */
export function moveTimesPanel(moveMs: readonly (number | null)[], control: TimeControl, first: Color, list: HTMLElement, go: (step: number) => void): MoveTimesPanel {
  const clocks = clockAfterMoves(control, moveMs, first);
  for (const [i, ms] of moveMs.entries()) list.querySelector(`.mv[data-step="${i + 1}"]`)?.append(moveTimeTag(ms, clocks[i]));
  const title = h('div', { class: 'card-title' }, 'Time per move');
  const el = h('div', { class: 'times-card', 'data-testid': 'move-times' }, title);
  const known = moveMs.filter((ms): ms is number => ms !== null);
  if (known.length === 0) {
    el.append(h('p', { class: 'times-note' }, moveMs.length === 0 ? 'No moves yet.' : 'This game’s move times were not kept.'));
    return { el, setStep: () => undefined };
  }
  const longest = Math.max(1000, ...known);
  const slot = W / Math.max(moveMs.length, 20);
  const colorOf = (i: number): Color => (i % 2 === 0 ? first : opposite(first));
  const bars = moveMs.map((ms, i) => {
    const up = colorOf(i) === first;
    const height = ms === null ? 0 : Math.max(1, (ms / longest) * (H / 2 - 2));
    return s(
      'rect',
      { class: `times-bar times-${colorOf(i)}${ms === null ? ' unknown' : ''}`, x: i * slot + slot * 0.1, y: up ? H / 2 - height : H / 2, width: slot * 0.8, height, 'data-step': i + 1 },
      s('title', null, `Move ${i + 1}, ${capital(colorOf(i))}: ${ms === null ? 'time not kept' : `${(ms / 1000).toFixed(1)} s`}${clocks[i] !== null && clocks[i] !== undefined ? `, ${clockText(clocks[i]!)} left` : ''}`),
    );
  });
  const hits = moveMs.map((_, i) => s('rect', { class: 'times-hit', x: i * slot, y: 0, width: slot, height: H, onclick: () => go(i + 1) }));
  const graph = s(
    'svg',
    { class: 'times-graph', viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', role: 'img', 'aria-label': `Time per move: ${capital(first)}’s up, ${opposite(first)}’s down`, 'data-testid': 'times-graph' },
    s('line', { class: 'times-mid', x1: 0, x2: W, y1: H / 2, y2: H / 2 }),
    bars,
    hits,
  );
  const total = (color: Color): string => {
    const mine = moveMs.filter((ms, i) => colorOf(i) === color && ms !== null) as number[];
    return spentText(mine.reduce((a, b) => a + b, 0));
  };
  const sides = h(
    'div',
    { class: 'times-totals' },
    ([first, opposite(first)] as const).map((color) => h('span', { 'data-total': color }, h('span', { class: `times-key times-${color}` }), `${capital(color)} ${total(color)}`)),
  );
  replace(el, title, graph, sides);
  return {
    el,
    setStep(step: number) {
      for (const bar of bars) bar.classList.toggle('current', Number(bar.dataset.step) === step);
    },
  };
}
