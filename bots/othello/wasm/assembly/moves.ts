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

// @ts-ignore: decorator
@inline
function pairCapturesUp(player: v128, mask: v128, shift: i32): v128 {
  let run = v128.and(mask, i64x2.shl(player, shift));
  run = v128.or(run, v128.and(mask, i64x2.shl(run, shift)));
  const pairs = v128.and(mask, i64x2.shl(mask, shift));
  run = v128.or(run, v128.and(pairs, i64x2.shl(run, shift << 1)));
  run = v128.or(run, v128.and(pairs, i64x2.shl(run, shift << 1)));
  return i64x2.shl(run, shift);
}

// @ts-ignore: decorator
@inline
function pairCapturesDown(player: v128, mask: v128, shift: i32): v128 {
  let run = v128.and(mask, i64x2.shr_u(player, shift));
  run = v128.or(run, v128.and(mask, i64x2.shr_u(run, shift)));
  const pairs = v128.and(mask, i64x2.shr_u(mask, shift));
  run = v128.or(run, v128.and(pairs, i64x2.shr_u(run, shift << 1)));
  run = v128.or(run, v128.and(pairs, i64x2.shr_u(run, shift << 1)));
  return i64x2.shr_u(run, shift);
}

/** `placements` for both sides at once, in the lanes of a SIMD vector: `player`'s in lane 0, `opponent`'s in lane 1. */
export function placementsBoth(player: u64, opponent: u64): v128 {
  const p = i64x2.replace_lane(i64x2.splat(player), 1, opponent);
  const o = i64x2.replace_lane(i64x2.splat(opponent), 1, player);
  const inner = v128.and(o, i64x2.splat(INNER));
  const reach = v128.or(
    v128.or(
      v128.or(pairCapturesUp(p, inner, 1), pairCapturesDown(p, inner, 1)),
      v128.or(pairCapturesUp(p, o, 8), pairCapturesDown(p, o, 8)),
    ),
    v128.or(
      v128.or(pairCapturesUp(p, inner, 9), pairCapturesDown(p, inner, 9)),
      v128.or(pairCapturesUp(p, inner, 7), pairCapturesDown(p, inner, 7)),
    ),
  );
  return v128.andnot(reach, i64x2.splat(player | opponent));
}
