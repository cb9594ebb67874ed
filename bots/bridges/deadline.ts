/** Kept back from every time an engine is given, for the trip to the server and back. */
export function transportMargin(ms: number): number {
  return Math.max(300, Math.round(ms * 0.1));
}

/** How long an engine is told it may think, when `deadline` is the server's. */
export function thinkingTime(deadline: number, now = Date.now()): number {
  const left = deadline - now;
  return Math.max(50, left - transportMargin(left));
}

/**
 * The latest moment an engine's answer is still taken. Engines are told a whole margin less than
 * this (`thinkingTime`) and cut off only at half of it, so one that overruns a little still plays.
 */
export function answerBy(deadline: number, now = Date.now()): number {
  return deadline - transportMargin(deadline - now) / 2;
}
