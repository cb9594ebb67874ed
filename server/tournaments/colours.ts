import type { Color } from '../../shared/color.js';

/** How much a player wants a colour: FIDE's absolute, strong and mild preferences, or none. */
export interface ColourWish {
  readonly color: Color | null;
  /** 3 absolute (two more of one colour, or the same twice in a row), 2 strong, 1 mild, 0 none. */
  readonly strength: 0 | 1 | 2 | 3;
}

/** The wish that follows a player's colours so far (byes leave no colour). */
export function colourWish(history: readonly Color[]): ColourWish {
  if (history.length === 0) return { color: null, strength: 0 };
  const blacks = history.filter((c) => c === 'black').length;
  const difference = blacks - (history.length - blacks);
  const last = history[history.length - 1]!;
  const other: Color = last === 'black' ? 'white' : 'black';
  const twice = history.length >= 2 && history[history.length - 2] === last;
  if (difference >= 2 || (twice && last === 'black')) return { color: 'white', strength: 3 };
  if (difference <= -2 || (twice && last === 'white')) return { color: 'black', strength: 3 };
  if (difference !== 0) return { color: difference > 0 ? 'white' : 'black', strength: 2 };
  return { color: other, strength: 1 };
}

/** Whether two players' wishes clash, and how badly (the weaker wish's strength). */
export function clash(a: ColourWish, b: ColourWish): number {
  return a.color !== null && a.color === b.color ? Math.min(a.strength, b.strength) : 0;
}

/**
 * Who of `first` (ranked higher) and `second` takes black: both wishes when they differ, else the
 * stronger wish, else the higher-ranked player's; with no wish at all, `firstGetsBlack` decides.
 */
export function allocate(first: ColourWish, second: ColourWish, firstGetsBlack: boolean): 'first' | 'second' {
  const wantsBlack = (w: ColourWish): boolean | null => (w.color === null ? null : w.color === 'black');
  if (first.color !== second.color || first.strength !== second.strength) {
    const leader = first.strength >= second.strength ? first : second;
    const leaderBlack = wantsBlack(leader);
    if (leaderBlack === null) return firstGetsBlack ? 'first' : 'second';
    return (leader === first) === leaderBlack ? 'first' : 'second';
  }
  const black = wantsBlack(first);
  if (black === null) return firstGetsBlack ? 'first' : 'second';
  return black ? 'first' : 'second';
}
