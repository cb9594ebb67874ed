/**
 * Othello boards as one u64 each: bit `row * 8 + col`, a1 = bit 0 (the top-left corner), the
 * same squares as `shared/othello/bitboard.ts` holds in two 32-bit halves.
 */

/** Columns b–g: a run that wraps from one row's edge to the next must stop here. */
const INNER: u64 = 0x7e7e7e7e7e7e7e7e;

/** Squares past runs of `mask` next to `player` in the direction of `shift` (a parallel-prefix fill). */
// @ts-ignore: decorator
@inline
function capturesUp(player: u64, mask: u64, shift: u64): u64 {
  let run = mask & (player << shift);
  run |= mask & (run << shift);
  const pairs = mask & (mask << shift);
  run |= pairs & (run << (shift << 1));
  run |= pairs & (run << (shift << 1));
  return run << shift;
}

// @ts-ignore: decorator
@inline
function capturesDown(player: u64, mask: u64, shift: u64): u64 {
  let run = mask & (player >> shift);
  run |= mask & (run >> shift);
  const pairs = mask & (mask >> shift);
  run |= pairs & (run >> (shift << 1));
  run |= pairs & (run >> (shift << 1));
  return run >> shift;
}

/** The squares where `player` (the side to move) may place a disc against `opponent`. */
export function placements(player: u64, opponent: u64): u64 {
  const inner = opponent & INNER;
  const reach =
    capturesUp(player, inner, 1) | capturesDown(player, inner, 1) |
    capturesUp(player, opponent, 8) | capturesDown(player, opponent, 8) |
    capturesUp(player, inner, 9) | capturesDown(player, inner, 9) |
    capturesUp(player, inner, 7) | capturesDown(player, inner, 7);
  return reach & ~(player | opponent);
}
