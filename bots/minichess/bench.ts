import { parsePosition } from '../../shared/minichess/notation.js';
import { search } from '../engine/search.js';
import { ENGINE_SEARCH_OPTIONS } from './bots.js';
import { MiniChessSearchBoard } from './search-board.js';

export interface GeneratorBenchRow {
  readonly position: string;
  readonly generator: 'ts' | 'wasm';
  readonly nodes: number;
  readonly ms: number;
}

/**
 * The engine's search to `depth` from each position on the rules' move generator, then on the
 * WebAssembly one, alternating, the best of `runs` each: the same nodes, so the times compare
 * the generators alone.
 */
export function benchMiniChessGenerators(positions: readonly string[], depth: number, runs: number): GeneratorBenchRow[] {
  const rows: GeneratorBenchRow[] = [];
  for (const text of positions) {
    const parsed = parsePosition(text);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const best = { ts: { nodes: 0, ms: Infinity }, wasm: { nodes: 0, ms: Infinity } };
    for (let run = 0; run <= runs; run++) {
      for (const generator of ['ts', 'wasm'] as const) {
        const report = search(MiniChessSearchBoard.fromPosition(parsed.value, generator), { ...ENGINE_SEARCH_OPTIONS, maxDepth: depth });
        if (run > 0 && report.ms < best[generator].ms) best[generator] = { nodes: report.nodes, ms: report.ms }; // run 0 warms up
      }
    }
    for (const generator of ['ts', 'wasm'] as const) rows.push({ position: text, generator, ...best[generator] });
  }
  return rows;
}
