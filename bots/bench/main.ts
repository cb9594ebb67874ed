import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { GAMES } from '../../shared/games.js';
import type { GameId } from '../../shared/rules.js';
import { engineWithBudget, loadGameBots } from '../registry.js';
import { benchFfo } from '../othello/bench.js';
import { benchAgainst, missingBuild } from './against.js';
import { GOMOKU_SEARCH_POSITIONS, OTHELLO_SEARCH_POSITIONS } from './checkout-figures.js';
import { benchAnswerTimes } from './answer-time.js';
import { parallelPerft } from '../perft/parallel.js';
import type { PerftEngine } from '../perft/subtrees.js';

const HELP = `Usage: npm run bench [-- --runs N | --nodes | --against DIR [--runs N]]

  --nodes        only the engine's node count for each fixed position and depth: deterministic, so
                 a change that must not alter the search shows the same counts before and after
  --against DIR  only FFO #40-#44, Othello perft(11), the Othello engine to depth 18 and the
                 Gomoku engine to depth 10 from their two positions, one thread, this checkout
                 (WebAssembly) against DIR, a built checkout of another commit (its dist/ made by
                 its own build): N rounds (default 3) of fresh processes, ours then theirs; the
                 medians of each side and how many times as fast ours is

Speed figures:
  perft, each the best of N runs (default 3) after one warm-up:
    Othello perft(11) from the start (must be 212258800): one thread, then one per core; the
      TypeScript move generator, then the WebAssembly core (bots/othello/wasm/)
    MiniChess perft(6) from the start (must be 514912)
  the engine: nodes/s of each game's engine, as the bots run it, to a fixed depth from fixed positions
  the Othello endgame solver: FFO #40-#44, exact move and margin, time per position; TypeScript,
    then the WebAssembly core below the root (the same nodes)
  the command's answer time: 'boardroom bestmove <game> --ms 300' from eight random positions per
    game, timed from starting the process to its exit (must be within 350 ms)`;

const ANSWER_BUDGET_MS = 300;
const ANSWER_LIMIT_MS = 350;

/** Fixed positions (the game's notation) and depths for the engine's speed. */
const SEARCH_CASES: readonly { game: GameId; position: string; depth: number }[] = [
  ...OTHELLO_SEARCH_POSITIONS.map((position) => ({ game: 'othello' as const, position, depth: 10 })),
  ...GOMOKU_SEARCH_POSITIONS.map((position) => ({ game: 'gomoku' as const, position, depth: 6 })),
  { game: 'minichess', position: 'kqbnr/ppppp/5/5/PPPPP/RNBQK w 1', depth: 7 },
  { game: 'minichess', position: 'kqbnr/p1pp1/1p2p/3P1/PPP1P/RNBQK w 5', depth: 7 },
];

interface PerftCase {
  readonly game: GameId;
  readonly depth: number;
  readonly expected: number;
  readonly threads: number;
  readonly engine: PerftEngine;
}

const CORES = availableParallelism();
const PERFT_CASES: readonly PerftCase[] = [
  { game: 'othello', depth: 11, expected: 212258800, threads: 1, engine: 'ts' },
  { game: 'othello', depth: 11, expected: 212258800, threads: CORES, engine: 'ts' },
  { game: 'othello', depth: 11, expected: 212258800, threads: 1, engine: 'wasm' },
  { game: 'othello', depth: 11, expected: 212258800, threads: CORES, engine: 'wasm' },
  // Past the table in docs/rules.md §Perft (depth 5); the same generator matches it there.
  { game: 'minichess', depth: 6, expected: 514912, threads: 1, engine: 'ts' },
];

/** A fresh engine, as the bots run it, searching the case's position to `maxDepth`. */
function searchToDepth(c: (typeof SEARCH_CASES)[number], maxDepth: number) {
  const position = GAMES[c.game].rules.parsePosition(c.position);
  if (!position.ok) throw new Error(position.error.message);
  return engineWithBudget(c.game, Infinity).think(position.value, { deadline: Infinity, maxDepth });
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { runs: { type: 'string', default: '3' }, nodes: { type: 'boolean' }, against: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (values.nodes) {
    await loadGameBots();
    for (const c of SEARCH_CASES) {
      const r = searchToDepth(c, c.depth);
      console.log(`${c.game.padEnd(9)} depth ${String(r.depth).padStart(2)}  ${String(r.nodes).padStart(9)} nodes  best ${GAMES[c.game].rules.formatMove(r.move)}`);
    }
    return 0;
  }
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) {
    console.error(`--runs must be a whole number of at least 1, not "${values.runs}".`);
    return 2;
  }
  if (values.against !== undefined) {
    const missing = missingBuild(values.against);
    if (missing) {
      console.error(`--against ${values.against}: not a built checkout, ${missing} is missing (build it with that commit's own build, e.g. npx tsc -p tsconfig.build.json in it).`);
      return 2;
    }
    return (await benchAgainst(values.against, runs)) ? 0 : 1;
  }
  let failed = false;
  console.log(`perft (${CORES} cores here), best of ${runs} after a warm-up`);
  for (const c of PERFT_CASES) {
    const game = GAMES[c.game];
    const measure = () => parallelPerft(game, game.rules.start(), c.depth, c.threads, undefined, c.engine);
    await measure();
    let best = Infinity;
    for (let i = 0; i < runs; i++) {
      const run = await measure();
      if (run.leaves !== c.expected) {
        console.error(`${c.game} perft(${c.depth}), ${c.engine}: ${run.leaves} leaves, expected ${c.expected}`);
        failed = true;
      }
      best = Math.min(best, run.ms);
    }
    const rate = Math.round(c.expected / (best / 1000)).toLocaleString('en-US');
    const name = `${c.game} perft(${c.depth})`;
    console.log(`  ${name.padEnd(20)} ${String(c.expected).padStart(10)} leaves  ${(best / 1000).toFixed(3)} s  ${rate.padStart(12)} leaves/s  ${c.threads} thread${c.threads > 1 ? 's' : ''}  ${c.engine}`);
  }
  console.log('\nthe engine as the bots run it, to a fixed depth (a fresh engine each)');
  await loadGameBots();
  for (const c of SEARCH_CASES) {
    const game = GAMES[c.game];
    searchToDepth(c, Math.max(1, c.depth - 2)); // warm-up
    const r = searchToDepth(c, c.depth);
    const nps = Math.round(r.nodes / (r.ms / 1000)).toLocaleString('en-US');
    console.log(`  ${c.game.padEnd(9)} depth ${String(r.depth).padStart(2)}  ${String(r.nodes).padStart(9)} nodes  ${(r.ms / 1000).toFixed(3)} s  ${nps.padStart(10)} nodes/s  best ${game.rules.formatMove(r.move)}`);
  }

  console.log('\nOthello endgame solver, FFO #40-#44 (exact move and margin), TypeScript then WebAssembly below the root');
  const totals = { ts: 0, wasm: 0 };
  for (const engine of ['ts', 'wasm'] as const) {
    for (const r of benchFfo(engine)) {
      totals[engine] += r.ms;
      if (!r.correct) failed = true;
      console.log(`  #${r.id}  ${r.move} ${r.score >= 0 ? '+' : ''}${r.score} (file: ${r.expected >= 0 ? '+' : ''}${r.expected}) ${r.correct ? 'right' : 'WRONG'}  ${String(r.nodes).padStart(10)} nodes  ${(r.ms / 1000).toFixed(2)} s  ${engine}`);
    }
    console.log(`  all five: ${(totals[engine] / 1000).toFixed(2)} s  ${engine}`);
  }
  console.log(`  WebAssembly ${(totals.ts / totals.wasm).toFixed(2)}x as fast as TypeScript`);

  console.log(`\n'boardroom bestmove <game> --ms ${ANSWER_BUDGET_MS}', process start to exit (limit ${ANSWER_LIMIT_MS} ms)`);
  const span = (values: number[]) => `${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))} ms`;
  for (const t of await benchAnswerTimes(ANSWER_BUDGET_MS)) {
    const slowest = Math.max(...t.wall);
    if (slowest > ANSWER_LIMIT_MS) failed = true;
    console.log(`  ${t.game.padEnd(9)} ${t.wall.length} positions  wall ${span(t.wall)}  searching ${span(t.reported)}  ${slowest > ANSWER_LIMIT_MS ? 'TOO SLOW' : 'within'}`);
  }
  return failed ? 1 : 0;
}

process.exitCode = await main();
