import blossom from 'edmonds-blossom-fixed';

/**
 * The pairs of the heaviest matching over the edges given (a missing edge: a pair that may not
 * be), by `edmonds-blossom-fixed`, an MIT port of van Rantwijk's reference implementation of
 * Edmonds' blossom algorithm. `complete`: among the matchings that pair the most, the heaviest.
 */
export function heaviestPairs(count: number, weight: (a: number, b: number) => number | null, complete: boolean): [number, number][] {
  const edges: [number, number, number][] = [];
  for (let a = 0; a < count; a++) {
    for (let b = a + 1; b < count; b++) {
      const w = weight(a, b);
      if (w !== null) edges.push([a, b, w]);
    }
  }
  if (edges.length === 0) return [];
  const mate = blossom(edges, complete);
  const pairs: [number, number][] = [];
  for (let a = 0; a < count; a++) if ((mate[a] ?? -1) > a) pairs.push([a, mate[a]!]);
  return pairs;
}
