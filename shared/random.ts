/**
 * mulberry32: a small seeded generator of signed 32-bit integers, the same sequence in every
 * process, for Zobrist keys, arena openings and tests whose failures must replay.
 */
export function mulberry32(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) | 0;
  };
}

/** Seeded numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  const next = mulberry32(seed);
  return () => (next() >>> 0) / 4294967296;
}

/** Seeded integers in [0, below). */
export function seededBelow(seed: number): (below: number) => number {
  const next = mulberry32(seed);
  return (below) => (next() >>> 0) % below;
}
