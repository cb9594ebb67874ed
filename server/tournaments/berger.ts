/**
 * The Berger tables of a round robin (FIDE Handbook C.05, Annex 1), players numbered from 1: each
 * round a list of [first, second] pairs, `first` having the first move's colour. With an odd count
 * the missing player is `null`: whoever meets it has the bye. A second cycle repeats the first
 * with colours reversed.
 *
 * The npm `roundrobin` package draws the circle method's rounds, not Berger's (its round 2 for six
 * players is 5-1 6-4 2-3, FIDE's 6-4 5-3 1-2), and balances colours only for the fixed player: the
 * table is a few lines of arithmetic, checked against FIDE's published tables.
 */
export function bergerRounds(players: number, cycles: 1 | 2 | number): [number, number | null][][] {
  const n = players % 2 === 0 ? players : players + 1;
  const m = n - 1;
  const named = (p: number): number | null => (p > players ? null : p);
  const onCircle = (p: number): number => (((p % m) + m) % m) + 1;
  const cycle: [number, number | null][][] = [];
  for (let r = 0; r < m; r++) {
    const a = ((r * n) / 2) % m; // the player (from 0) who meets the fixed one
    const round: [number, number | null][] = [r % 2 === 0 ? [a + 1, named(n)] : [n, a + 1]];
    for (let k = 1; k < n / 2; k++) round.push([onCircle(a + k), onCircle(a - k)]);
    // The bye is written with the present player first.
    cycle.push(round.map(([x, y]) => (named(x) === null ? [y!, null] : [x, y === null ? null : named(y)])));
  }
  const reversed = cycle.map((round) => round.map(([x, y]): [number, number | null] => (y === null ? [x, null] : [y, x])));
  const all: [number, number | null][][] = [];
  for (let c = 0; c < cycles; c++) all.push(...(c % 2 === 0 ? cycle : reversed));
  return all;
}
