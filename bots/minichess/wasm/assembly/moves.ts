/**
 * MiniChess move generation on the 5×6 board: the port of `MiniChessBoard`'s `scan`
 * (`shared/minichess/board.ts`), writing the same moves in the same order, so that a search on
 * either visits the same nodes. Pieces by code in `squares` (positive white), and each side's
 * squares as a set (bit = square, a1 = bit 0) from the caller, who keeps them move by move:
 * sliders find their first blocker with one count of zeros instead of stepping square by square.
 */

const FILE_COUNT = 5;
const RANK_COUNT = 6;
const SQUARE_COUNT = FILE_COUNT * RANK_COUNT;
const LAST_RANK_START = SQUARE_COUNT - FILE_COUNT;
const PAWN: i32 = 1;
const ROOK: i32 = 2;
const KNIGHT: i32 = 3;
const BISHOP: i32 = 4;
const KING: i32 = 6;
/** What `scan` returns when the side to move can take the opponent's king, as the TypeScript scan does. */
const KING_CAPTURE: i32 = -1;
/** What `scan` returns, asked for captures and promotions only, when the side to move has no move at all. */
const NO_MOVE: i32 = -2;
/** More than any position has (a queen and a knight on every square would have 30 × 21). */
const MOVES_CAPACITY = 1024;

// Directions in the TypeScript tables' order: rook's (up, down, right, left), then bishop's. The
// even ones go toward higher squares, so their nearest square is a set's lowest bit.
const LINE_FILE_STEP: StaticArray<i32> = [0, 0, 1, -1, 1, 1, -1, -1];
const LINE_RANK_STEP: StaticArray<i32> = [1, -1, 0, 0, 1, -1, 1, -1];
const JUMP_FILE_STEP: StaticArray<i32> = [1, 2, 2, 1, -1, -2, -2, -1];
const JUMP_RANK_STEP: StaticArray<i32> = [2, 1, -1, -2, -2, -1, 1, 2];

/** By line (`square * 8 + direction`): the squares along it, as a set. */
const RAYS = new StaticArray<u32>(SQUARE_COUNT * 8);
/** By line: a king's or a knight's one target that way, or -1 off the board. */
const KING_TARGETS = new StaticArray<i8>(SQUARE_COUNT * 8);
const KNIGHT_TARGETS = new StaticArray<i8>(SQUARE_COUNT * 8);

function onBoard(file: i32, rank: i32): bool {
  return file >= 0 && file < FILE_COUNT && rank >= 0 && rank < RANK_COUNT;
}

for (let from = 0; from < SQUARE_COUNT; from++) {
  for (let d = 0; d < 8; d++) {
    const line = from * 8 + d;
    let file = (from % FILE_COUNT) + LINE_FILE_STEP[d];
    let rank = from / FILE_COUNT + LINE_RANK_STEP[d];
    KING_TARGETS[line] = onBoard(file, rank) ? <i8>(rank * FILE_COUNT + file) : -1;
    let ray: u32 = 0;
    while (onBoard(file, rank)) {
      ray |= (<u32>1) << <u32>(rank * FILE_COUNT + file);
      file += LINE_FILE_STEP[d];
      rank += LINE_RANK_STEP[d];
    }
    RAYS[line] = ray;
    const jumpFile = (from % FILE_COUNT) + JUMP_FILE_STEP[d];
    const jumpRank = from / FILE_COUNT + JUMP_RANK_STEP[d];
    KNIGHT_TARGETS[line] = onBoard(jumpFile, jumpRank) ? <i8>(jumpRank * FILE_COUNT + jumpFile) : -1;
  }
}

const squares = new StaticArray<i8>(SQUARE_COUNT);
const moves = new StaticArray<i32>(MOVES_CAPACITY);

/** Where the caller writes the piece codes by square (30 bytes). */
export function squaresPointer(): usize {
  return changetype<usize>(squares);
}

/** Where `scan` writes its moves, `from | (to << 5)` each (i32). */
export function movesPointer(): usize {
  return changetype<usize>(moves);
}

/**
 * The moves of the side `us` (+1 white, -1 black) whose pieces are on `own`, against `other`: how
 * many were written, or KING_CAPTURE as soon as one takes the king. With `noisyOnly`, captures and
 * promotions only, or NO_MOVE when there is no move of any kind.
 */
export function scan(us: i32, own: u32, other: u32, noisyOnly: bool): i32 {
  const occupied = own | other;
  let n = 0;
  let quiet = false;
  for (let pieces = own; pieces != 0; pieces &= pieces - 1) {
    const from = <i32>ctz(pieces);
    const kind = <i32>unchecked(squares[from]) * us;
    if (kind == PAWN) {
      const ahead = from + us * FILE_COUNT;
      if (unchecked(squares[ahead]) == 0) {
        quiet = true;
        if (!noisyOnly || ahead < FILE_COUNT || ahead >= LAST_RANK_START) unchecked((moves[n++] = from | (ahead << 5)));
      }
      const file = from % FILE_COUNT;
      if (file > 0) {
        const victim = <i32>unchecked(squares[ahead - 1]) * us;
        if (victim == -KING) return KING_CAPTURE;
        if (victim < 0) unchecked((moves[n++] = from | ((ahead - 1) << 5)));
      }
      if (file < FILE_COUNT - 1) {
        const victim = <i32>unchecked(squares[ahead + 1]) * us;
        if (victim == -KING) return KING_CAPTURE;
        if (victim < 0) unchecked((moves[n++] = from | ((ahead + 1) << 5)));
      }
    } else if (kind == KNIGHT || kind == KING) {
      const targets = kind == KNIGHT ? KNIGHT_TARGETS : KING_TARGETS;
      for (let line = from * 8; line < from * 8 + 8; line++) {
        const to = <i32>unchecked(targets[line]);
        if (to < 0) continue;
        const victim = <i32>unchecked(squares[to]) * us;
        if (victim > 0) continue;
        if (victim == -KING) return KING_CAPTURE;
        if (victim == 0) {
          quiet = true;
          if (noisyOnly) continue;
        }
        unchecked((moves[n++] = from | (to << 5)));
      }
    } else {
      const first = kind == BISHOP ? 4 : 0;
      const last = kind == ROOK ? 4 : 8;
      for (let d = first; d < last; d++) {
        const ray = unchecked(RAYS[from * 8 + d]);
        const blockers = ray & occupied;
        const up = (d & 1) == 0;
        const blocker = blockers == 0 ? -1 : up ? <i32>ctz(blockers) : 31 - <i32>clz(blockers);
        // The empty squares before the blocker, nearest first.
        let empty = blockers == 0 ? ray : ray & (up ? (<u32>1 << <u32>blocker) - 1 : ~((<u32>2 << <u32>blocker) - 1));
        if (empty != 0) {
          quiet = true;
          if (!noisyOnly) {
            while (empty != 0) {
              const to = up ? <i32>ctz(empty) : 31 - <i32>clz(empty);
              unchecked((moves[n++] = from | (to << 5)));
              empty ^= (<u32>1) << <u32>to;
            }
          }
        }
        if (blocker >= 0) {
          const victim = <i32>unchecked(squares[blocker]) * us;
          if (victim == -KING) return KING_CAPTURE;
          if (victim < 0) unchecked((moves[n++] = from | (blocker << 5)));
        }
      }
    }
  }
  return noisyOnly && n == 0 && !quiet ? NO_MOVE : n;
}
