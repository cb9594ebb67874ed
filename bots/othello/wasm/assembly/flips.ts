/**
 * What a move flips, by rays: for each of the eight directions from the square, the nearest
 * square that is not the opponent's; when it holds the mover's disc, the opponent's discs before
 * it flip. The four directions toward higher bits two at a time, in the lanes of a SIMD vector; the
 * four toward lower bits one at a time, as their nearest stop is the highest bit, which a scalar
 * count of leading zeros finds at once and SIMD (no clz) only by smearing (measured slower).
 * No branches: whether a ray flips is a select, unpredictable as the solver tries squares that
 * flip nothing.
 */

/** `RAYS[square * 8 + d]`: the squares beyond `square` in direction `d`, not `square` itself. */
const RAYS = new StaticArray<u64>(64 * 8);
/** Row and column steps: the first four go toward higher bits (E, S, SE, SW), the last four back. */
const ROW_STEP: StaticArray<i32> = [0, 1, 1, 1, 0, -1, -1, -1];
const COL_STEP: StaticArray<i32> = [1, 0, 1, -1, -1, 0, -1, 1];

for (let square = 0; square < 64; square++) {
  for (let d = 0; d < 8; d++) {
    let ray: u64 = 0;
    let row = (square >> 3) + ROW_STEP[d];
    let col = (square & 7) + COL_STEP[d];
    while (row >= 0 && row < 8 && col >= 0 && col < 8) {
      ray |= (<u64>1) << <u64>(row * 8 + col);
      row += ROW_STEP[d];
      col += COL_STEP[d];
    }
    RAYS[square * 8 + d] = ray;
  }
}

/** Flips toward higher bits along two rays at once: the discs before the nearest non-opponent square, when it is the player's. */
// @ts-ignore: decorator
@inline
function pairUp(player: v128, opponent: v128, rays: v128): v128 {
  const stops = v128.andnot(rays, opponent);
  const first = v128.and(stops, i64x2.neg(stops));
  const run = v128.and(rays, i64x2.sub(first, i64x2.splat(1)));
  return v128.andnot(run, i64x2.eq(v128.and(first, player), i64x2.splat(0)));
}

/** Flips toward lower bits along one ray: its nearest stop is the highest. */
// @ts-ignore: decorator
@inline
function flipsDown(player: u64, opponent: u64, ray: u64): u64 {
  const first = (<u64>0x8000000000000000) >> clz(ray & ~opponent);
  return select<u64>(ray & -(first << 1), 0, (first & player) != 0);
}

/** The discs that a `player` disc on the empty `square` flips (none: not a legal move). */
export function flips(player: u64, opponent: u64, square: i32): u64 {
  const rays = changetype<usize>(RAYS) + (<usize>square << 6);
  const p = i64x2.splat(player);
  const o = i64x2.splat(opponent);
  const up = v128.or(pairUp(p, o, v128.load(rays)), pairUp(p, o, v128.load(rays, 16)));
  return (
    i64x2.extract_lane(up, 0) |
    i64x2.extract_lane(up, 1) |
    flipsDown(player, opponent, load<u64>(rays, 32)) |
    flipsDown(player, opponent, load<u64>(rays, 40)) |
    flipsDown(player, opponent, load<u64>(rays, 48)) |
    flipsDown(player, opponent, load<u64>(rays, 56))
  );
}
