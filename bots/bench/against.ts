import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CHECKOUT_MODULES, GOMOKU_DEPTH, MIDGAME_DEPTH, PERFT_DEPTH, PERFT_LEAVES, type FfoFigure, type Figure, type MidgameFigure, type PerftFigure } from './checkout-figures.js';

const run = promisify(execFile);
const ENTRY = fileURLToPath(new URL('./checkout-figures.js', import.meta.url));
/** This checkout's root, from `dist/bots/bench/`. */
const OURS = fileURLToPath(new URL('../../../', import.meta.url));

/** The first compiled module `dir` lacks, or none: a checkout must be built to be measured. */
export function missingBuild(dir: string): string | undefined {
  return CHECKOUT_MODULES.map((module) => join(dir, module)).find((file) => !existsSync(file));
}

async function figureOf<F extends FfoFigure | PerftFigure | MidgameFigure>(dir: string, figure: F['figure']): Promise<F> {
  const { stdout } = await run(process.execPath, [ENTRY, dir, figure satisfies Figure], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as F;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

/**
 * FFO #40–#44, perft(11), and the Othello and Gomoku engines' searches to a fixed depth, on one
 * thread, this checkout (the WebAssembly cores) against the built
 * checkout `dir`, each figure in a fresh process, alternating ours and theirs for `rounds` rounds;
 * prints the medians per side and how many times as fast ours is. False when a figure is wrong.
 */
export async function benchAgainst(dir: string, rounds: number): Promise<boolean> {
  const theirs = resolve(dir);
  let right = true;
  const ffo = { ours: [] as FfoFigure[], theirs: [] as FfoFigure[] };
  const perft = { ours: [] as number[], theirs: [] as number[] };
  const midgame = { ours: [] as MidgameFigure[], theirs: [] as MidgameFigure[] };
  const gomoku = { ours: [] as MidgameFigure[], theirs: [] as MidgameFigure[] };
  console.log(`this checkout (WebAssembly) against ${theirs}, ${rounds} rounds of fresh processes, ours then theirs; medians`);
  for (let round = 1; round <= rounds; round++) {
    for (const [side, root] of [['ours', OURS], ['theirs', theirs]] as const) {
      const f = await figureOf<FfoFigure>(root, 'ffo');
      const p = await figureOf<PerftFigure>(root, 'perft');
      const m = await figureOf<MidgameFigure>(root, 'midgame');
      const g = await figureOf<MidgameFigure>(root, 'gomoku');
      midgame[side].push(m);
      gomoku[side].push(g);
      const wrong = f.positions.filter((x) => !x.correct).map((x) => `#${x.id}`);
      if (wrong.length > 0 || p.leaves !== PERFT_LEAVES) right = false;
      ffo[side].push(f);
      perft[side].push(p.ms);
      const total = f.positions.reduce((sum, x) => sum + x.ms, 0);
      console.log(`  round ${round} ${side.padEnd(6)}  FFO ${seconds(total)}${wrong.length ? ` WRONG ${wrong.join(' ')}` : ''}  perft(${PERFT_DEPTH}) ${seconds(p.ms)}${p.leaves !== PERFT_LEAVES ? ` WRONG ${p.leaves} leaves` : ''}  midgame ${seconds(m.ms)}  gomoku ${seconds(g.ms)}`);
    }
  }
  const ids = ffo.ours[0]!.positions.map((x) => x.id);
  const row = (name: string, ours: number, them: number, note = '') =>
    console.log(`  ${name.padEnd(14)} ours ${seconds(ours).padStart(8)}  theirs ${seconds(them).padStart(8)}  ${(them / ours).toFixed(2)}x as fast${note}`);
  ids.forEach((id, i) => {
    const at = (side: 'ours' | 'theirs') => median(ffo[side].map((f) => f.positions[i]!.ms));
    const nodes = (side: 'ours' | 'theirs') => ffo[side][0]!.positions[i]!.nodes;
    row(`FFO #${id}`, at('ours'), at('theirs'), `  ${nodes('ours')} nodes${nodes('ours') === nodes('theirs') ? ' both' : `, theirs ${nodes('theirs')}`}`);
  });
  const totals = (side: 'ours' | 'theirs') => median(ffo[side].map((f) => f.positions.reduce((sum, x) => sum + x.ms, 0)));
  row('FFO all five', totals('ours'), totals('theirs'));
  row(`perft(${PERFT_DEPTH})`, median(perft.ours), median(perft.theirs));
  for (const [name, figures] of [[`midgame d${MIDGAME_DEPTH}`, midgame], [`gomoku d${GOMOKU_DEPTH}`, gomoku]] as const) {
    const nodes = (side: 'ours' | 'theirs') => figures[side][0]!.nodes;
    row(name, median(figures.ours.map((m) => m.ms)), median(figures.theirs.map((m) => m.ms)), `  ${nodes('ours')} nodes${nodes('ours') === nodes('theirs') ? ' both' : `, theirs ${nodes('theirs')}`}`);
  }
  return right;
}
