/**
 * One figure of a built checkout, in a process of its own: `node checkout-figures.js DIR FIGURE`
 * loads DIR's compiled solver, perft or engine (DIR may be this checkout or an older one, whose modules
 * have the same names) and prints the figure as one JSON line. The parent is `against.ts`.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const FIGURES = ['ffo', 'perft', 'midgame', 'gomoku'] as const;
export type Figure = (typeof FIGURES)[number];

/** The compiled modules a checkout needs for the figures, from its root. */
export const CHECKOUT_MODULES = ['dist/bots/othello/bench.js', 'dist/bots/perft/parallel.js', 'dist/shared/games.js', 'dist/bots/registry.js'] as const;

/** Othello positions for the engine's speed: near the start, and a championship game after 20 moves. */
export const OTHELLO_SEARCH_POSITIONS = [
  '---------------------------OX------OXX-----O-------------------- X',
  // Nicolet vs Tominaga, World Championship 2007 final, after 20 moves (test/fixtures/records).
  '-------------------XX-OO---XXXOO--XXXXXO--OXXOOO---OOO---------- X',
] as const;
export const MIDGAME_DEPTH = 18;

/** Gomoku positions for the engine's speed: two openings of a few stones each. */
export const GOMOKU_SEARCH_POSITIONS = ['h8 h9 i9 g7 i7 i8', 'h8 i9 g9 i7 i8 g7 j8 k8'] as const;
export const GOMOKU_DEPTH = 10;

/** The engine figures: the game, its positions, the depth, and the shallower warm-up's. */
const ENGINE_FIGURES = {
  midgame: { game: 'othello', positions: OTHELLO_SEARCH_POSITIONS, depth: MIDGAME_DEPTH, warmUp: MIDGAME_DEPTH - 6 },
  gomoku: { game: 'gomoku', positions: GOMOKU_SEARCH_POSITIONS, depth: GOMOKU_DEPTH, warmUp: GOMOKU_DEPTH - 4 },
} as const;

export const PERFT_DEPTH = 11;
export const PERFT_LEAVES = 212258800;

export interface FfoFigure {
  readonly figure: 'ffo';
  readonly positions: { id: number; ms: number; nodes: number; correct: boolean }[];
}

/** An engine's search to a fixed depth: Othello's (`midgame`) or Gomoku's. */
export interface MidgameFigure {
  readonly figure: 'midgame' | 'gomoku';
  readonly ms: number;
  readonly nodes: number;
}

export interface PerftFigure {
  readonly figure: 'perft';
  readonly ms: number;
  readonly leaves: number;
}

async function load<T>(dir: string, module: (typeof CHECKOUT_MODULES)[number]): Promise<T> {
  return (await import(pathToFileURL(join(dir, module)).href)) as T;
}

type BenchModule = { benchFfo(engine?: 'wasm'): { id: number; ms: number; nodes: number; correct: boolean }[] };
type PerftModule = { parallelPerft(game: unknown, position: unknown, depth: number, threads: number, onProgress: undefined, engine: 'wasm'): Promise<{ leaves: number; ms: number }> };
type GameModule = { rules: { start(): unknown; parsePosition(text: string): { ok: boolean; value: unknown } } };
type GamesModule = { GAMES: { othello: GameModule; gomoku: GameModule } };
type RegistryModule = {
  loadGameBots(): Promise<void>;
  engineWithBudget(game: 'othello' | 'gomoku', budgetMs: number): { think(position: unknown, limits: { deadline: number; maxDepth: number }): { nodes: number; ms: number } };
};

/**
 * FFO #40–#44 as the checkout's bench solves them (its default solver; a checkout with an engine
 * option is asked for WebAssembly), perft(11) on one thread after a perft(9) warm-up, the
 * WebAssembly core where the checkout has one (an older `parallelPerft` ignores the argument), or
 * the Othello (`midgame`) or Gomoku engine as its bots run it, to a fixed depth from both search
 * positions after a shallower warm-up.
 */
async function measure(dir: string, figure: Figure): Promise<FfoFigure | PerftFigure | MidgameFigure> {
  if (figure === 'midgame' || figure === 'gomoku') {
    const { loadGameBots, engineWithBudget } = await load<RegistryModule>(dir, 'dist/bots/registry.js');
    const { GAMES } = await load<GamesModule>(dir, 'dist/shared/games.js');
    await loadGameBots();
    const { game, positions, depth, warmUp } = ENGINE_FIGURES[figure];
    let ms = 0;
    let nodes = 0;
    for (const text of positions) {
      const position = GAMES[game].rules.parsePosition(text).value;
      engineWithBudget(game, Infinity).think(position, { deadline: Infinity, maxDepth: warmUp });
      const report = engineWithBudget(game, Infinity).think(position, { deadline: Infinity, maxDepth: depth });
      ms += report.ms;
      nodes += report.nodes;
    }
    return { figure, ms, nodes };
  }
  if (figure === 'ffo') {
    const { benchFfo } = await load<BenchModule>(dir, 'dist/bots/othello/bench.js');
    return { figure, positions: benchFfo('wasm').map(({ id, ms, nodes, correct }) => ({ id, ms, nodes, correct })) };
  }
  const { parallelPerft } = await load<PerftModule>(dir, 'dist/bots/perft/parallel.js');
  const { GAMES } = await load<GamesModule>(dir, 'dist/shared/games.js');
  const othello = GAMES.othello;
  await parallelPerft(othello, othello.rules.start(), PERFT_DEPTH - 2, 1, undefined, 'wasm');
  const { leaves, ms } = await parallelPerft(othello, othello.rules.start(), PERFT_DEPTH, 1, undefined, 'wasm');
  return { figure, ms, leaves };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [dir, figure] = process.argv.slice(2);
  if (!dir || !FIGURES.includes(figure as Figure)) {
    console.error(`Usage: node checkout-figures.js DIR ${FIGURES.join('|')}`);
    process.exitCode = 2;
  } else {
    console.log(JSON.stringify(await measure(dir, figure as Figure)));
    process.exit(0); // a checkout's worker threads or timers must not keep the figure waiting
  }
}
