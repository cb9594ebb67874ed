/**
 * Inserts `move` with `score` into a list kept best first: `moves[base + 0 .. base + at]` and
 * `scores[0 .. at]`, whose slot `at` is free (or holds the worst entry, to be dropped). The move
 * goes after the entries scoring as much as it does, so equal moves keep the order they came in.
 */
export function insertBestFirst(moves: Int32Array, base: number, scores: Int32Array, at: number, move: number, score: number): void {
  let j = at;
  while (j > 0 && scores[j - 1]! < score) {
    scores[j] = scores[j - 1]!;
    moves[base + j] = moves[base + j - 1]!;
    j--;
  }
  scores[j] = score;
  moves[base + j] = move;
}
