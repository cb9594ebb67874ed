/**
 * What a move flips, by rays: for each of the eight directions from the square, the nearest
 * square that is not the opponent's; when it holds the mover's disc, the opponent's discs before
 * it flip. Directions toward higher bits find it with the lowest set bit, the others with `clz`.
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

/** Flips toward higher bits along `ray`: the discs before the nearest non-opponent square, when it is the player's. */
// @ts-ignore: decorator
@inline
function flipsUp(player: u64, opponent: u64, ray: u64): u64 {
  const stops = ray & ~opponent;
  const first = stops & (0 - stops);
  return select<u64>(ray & (first - 1), 0, (first & player) != 0);
}

/** Flips toward lower bits: the nearest stop is the highest (none: `first` is 0, and so is the result). */
// @ts-ignore: decorator
@inline
function flipsDown(player: u64, opponent: u64, ray: u64): u64 {
  const stops = ray & ~opponent;
  const first = ((<u64>1 << 63) >> clz(stops)) & stops;
  return select<u64>(ray & ~(first | (first - 1)), 0, (first & player) != 0);
}

/** The discs that a `player` disc on the empty `square` flips (none: not a legal move). */
export function flips(player: u64, opponent: u64, square: i32): u64 {
  const rays = changetype<usize>(RAYS) + (<usize>square << 6);
  return (
    flipsUp(player, opponent, load<u64>(rays)) |
    flipsUp(player, opponent, load<u64>(rays, 8)) |
    flipsUp(player, opponent, load<u64>(rays, 16)) |
    flipsUp(player, opponent, load<u64>(rays, 24)) |
    flipsDown(player, opponent, load<u64>(rays, 32)) |
    flipsDown(player, opponent, load<u64>(rays, 40)) |
    flipsDown(player, opponent, load<u64>(rays, 48)) |
    flipsDown(player, opponent, load<u64>(rays, 56))
  );
}
