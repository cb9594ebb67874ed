/** How every game writes a pass (only Othello has one). */
export const PASS = 'pass';

/**
 * A side whose only legal move is a pass must pass (Othello, when no disc can be placed): the move
 * is nobody's choice, so the server plays it at once and the client never asks for it. `legal` is
 * the side's legal moves, as text or as the rules' numbers with `format`.
 */
export function isForcedPass<M>(legal: readonly M[], format: (move: M) => string = String): boolean {
  return legal.length === 1 && format(legal[0]!) === PASS;
}
