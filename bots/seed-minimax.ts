/**
 * The plain minimax with an alpha-beta window that the seed reports write (each over its own
 * board and evaluation): values from the root player's view, a node maximising or minimising
 * as its seed decides. Not the engine's search (`engine/search.ts`): no table, no ordering.
 */

/** A seed's search that ran out of time: thrown from the node that saw the clock run out. */
export class OutOfTime extends Error {}

/**
 * One node's loop over its `count` children: `child(i, alpha, beta)` plays the i-th move, searches
 * it with the window and takes it back. The best value for the side `maximizing` says, from `start`;
 * the window narrows as children come back, and the loop stops once alpha meets beta.
 */
export function minimaxNode(
  count: number,
  maximizing: boolean,
  alpha: number,
  beta: number,
  start: number,
  child: (index: number, alpha: number, beta: number) => number,
): number {
  let value = start;
  for (let i = 0; i < count; i++) {
    const score = child(i, alpha, beta);
    if (maximizing) {
      if (score > value) value = score;
      if (value > alpha) alpha = value;
    } else {
      if (score < value) value = score;
      if (value < beta) beta = value;
    }
    if (alpha >= beta) break;
  }
  return value;
}

/**
 * A seed's root: each of the `count` moves searched by `child(i, best)` (given the best score so
 * far), the first strictly better than every earlier one and than `floor` kept; index 0 when none is.
 */
export function bestRootChild(count: number, floor: number, child: (index: number, best: number) => number): { index: number; score: number } {
  let index = 0;
  let best = floor;
  for (let i = 0; i < count; i++) {
    const score = child(i, best);
    if (score > best) {
      best = score;
      index = i;
    }
  }
  return { index, score: best };
}
