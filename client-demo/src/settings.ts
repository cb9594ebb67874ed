import { loadJson, saveJson } from './storage.js';

/** The player's preferences for this browser, kept in localStorage. */
export interface Settings {
  /** A short tone on each move. */
  readonly sound: boolean;
  /** A tap (or Enter) marks a move; a second one on the same point, or Confirm, plays it. */
  readonly confirm: boolean;
  /** During the opponent's turn, a move may be chosen ahead and is played as the turn comes. */
  readonly premove: boolean;
  /** MiniChess: a move that would leave the player's king to be taken is marked before it is played. */
  readonly kingWarning: boolean;
}

const KEY = 'settings';

/** A touch screen: fingers cover a point and slip, and a phone that beeps in public annoys. */
export function coarsePointer(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
}

/**
 * Defaults by device: on a touch screen moves are confirmed and silent; with a mouse they are
 * played at once, with sound (the opponent's move is heard from another tab, as on Lichess).
 * Premove is off until chosen: a move played by itself surprises a new player. King warnings are
 * on: with no check rule, a new player's king is easily left to be taken.
 */
export function defaultSettings(): Settings {
  const touch = coarsePointer();
  return { sound: !touch, confirm: touch, premove: false, kingWarning: true };
}

export function settings(): Settings {
  const stored = loadJson(KEY);
  const base = defaultSettings();
  if (!stored || typeof stored !== 'object') return base;
  const s = stored as Partial<Record<keyof Settings, unknown>>;
  return {
    sound: typeof s.sound === 'boolean' ? s.sound : base.sound,
    confirm: typeof s.confirm === 'boolean' ? s.confirm : base.confirm,
    premove: typeof s.premove === 'boolean' ? s.premove : base.premove,
    kingWarning: typeof s.kingWarning === 'boolean' ? s.kingWarning : base.kingWarning,
  };
}

/** Keeps only what the player chose, so a default not chosen still follows the device. */
export function changeSettings(patch: Partial<Settings>): void {
  const stored = loadJson(KEY);
  saveJson(KEY, { ...(stored && typeof stored === 'object' ? stored : {}), ...patch });
}
