/** Whether a figure sampled over a long run levels off: the soak's verdict on memory. */
export type Level = 'level' | 'growing' | 'falling';

export interface Sample {
  readonly minute: number;
  readonly value: number;
}

/**
 * `level` when every sample of the run's last third is within `tolerance` (±10%) of the mean of its
 * middle third (over 30 minutes: minutes 20–30 against minutes 10–20), else which way it left;
 * undefined when the run is too short to have a middle third.
 */
export function levelVerdict(samples: readonly Sample[], tolerance = 0.1): Level | undefined {
  const end = Math.max(...samples.map((s) => s.minute));
  const middle = samples.filter((s) => s.minute >= end / 3 && s.minute < (2 * end) / 3 && Number.isFinite(s.value));
  const last = samples.filter((s) => s.minute >= (2 * end) / 3 && Number.isFinite(s.value));
  if (middle.length === 0 || last.length === 0) return undefined;
  const mean = middle.reduce((sum, s) => sum + s.value, 0) / middle.length;
  if (last.some((s) => s.value > mean * (1 + tolerance))) return 'growing';
  if (last.some((s) => s.value < mean * (1 - tolerance))) return 'falling';
  return 'level';
}
