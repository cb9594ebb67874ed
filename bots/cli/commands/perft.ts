import { availableParallelism } from 'node:os';
import { GAMES, type Game, type Position } from '../../../shared/games.js';
import { parallelPerft } from '../../perft/parallel.js';
import { leaves as leavesBelow, PERFT_ENGINES, type PerftEngine } from '../../perft/subtrees.js';
import type { Command } from '../command.js';
import { parseCommandArgs } from '../command.js';
import { gameArg, progressBar, UsageError, wholeNumberArg, type Output } from '../../tool-io.js';
import { positionArg } from './position.js';

const HELP = `Usage: boardroom perft <game> <depth> [--position TEXT] [--threads N] [--engine ts|wasm] [--divide] [--json]

Counts the leaves of the game tree to <depth> plies (a pass is a ply; a finished game is
one leaf), the standard check that a move generator is exact.

  <game>             othello, gomoku or minichess
  <depth>            plies, 0 to 20
  --position TEXT    start from this position instead of the start (OBF line for othello,
                     "kqbnr/ppppp/5/5/PPPPP/RNBQK w 1" for minichess, rows or moves for gomoku)
  --threads N        worker threads sharing the tree (default: one per core, ${availableParallelism()} here);
                     1 counts in this thread alone
  --engine ts|wasm   who counts: for othello the WebAssembly core (bots/othello/wasm/, built
                     by npm run build; the default, about twice as fast) or the TypeScript
                     move generator; the other games have only ts
  --divide           print the leaves under each first move (counts in one thread)
  --json             last line: {"game":"othello","depth":10,"leaves":24571284,"ms":123.4,"threads":2,"engine":"wasm"}

Example: boardroom perft othello 10 --json`;

export const perftCommand: Command = {
  help: HELP,
  async run(argv, output) {
    const { values, positionals } = parseCommandArgs(argv, {
      position: { type: 'string' },
      threads: { type: 'string' },
      engine: { type: 'string' },
      divide: { type: 'boolean' },
      json: { type: 'boolean' },
    });
    if (positionals.length > 2) throw new UsageError(`perft takes a game and a depth, not "${positionals.slice(2).join(' ')}".`);
    const game = GAMES[gameArg(positionals[0])];
    const depth = wholeNumberArg('The depth', positionals[1], 0, 20);
    const position = positionArg(game, values.position);
    const threads = values.threads === undefined ? availableParallelism() : wholeNumberArg('--threads', values.threads, 1, 64);
    const engine = engineArg(values.engine, game);

    const started = performance.now();
    let leaves = 0;
    let usedThreads = 1;
    if (values.divide) {
      leaves = divide(game, position, depth, engine, output);
    } else {
      const bar = progressBar(output, `perft ${game.id} ${depth}`, 1);
      const run = await parallelPerft(
        game,
        position,
        depth,
        threads,
        (done, total) => {
          bar.total = total;
          bar.tick(done);
        },
        engine,
      );
      bar.end();
      leaves = run.leaves;
      usedThreads = run.threads;
    }
    const ms = Math.round((performance.now() - started) * 10) / 10;
    const perSecond = ms > 0 ? Math.round(leaves / (ms / 1000)) : leaves;
    if (values.json) output.out(JSON.stringify({ game: game.id, depth, leaves, ms, threads: usedThreads, engine }));
    else {
      const rate = perSecond.toLocaleString('en-US');
      output.out(`perft(${depth}) = ${leaves} leaves in ${ms} ms (${rate} leaves/s, ${usedThreads} thread${usedThreads > 1 ? 's' : ''}, ${engine})`);
    }
    return 0;
  },
};

/** Othello counts in WebAssembly unless told otherwise: perft(10) in 215 ms against 478 ms, one thread. */
function engineArg(value: string | undefined, game: Game): PerftEngine {
  if (value === undefined) return game.id === 'othello' ? 'wasm' : 'ts';
  const engine = PERFT_ENGINES.find((e) => e === value);
  if (!engine) throw new UsageError(`--engine is ${PERFT_ENGINES.join(' or ')}, not "${value}".`);
  if (engine === 'wasm' && game.id !== 'othello') throw new UsageError(`--engine wasm counts othello only, not ${game.id}.`);
  return engine;
}

/** Counts each first move's subtree in turn, printing `move: leaves`. */
function divide(game: Game, position: Position, depth: number, engine: PerftEngine, output: Output): number {
  if (depth === 0) return 1;
  const board = game.board(position);
  const buffer = new Int32Array(board.maxMoves);
  const n = board.generateMoves(buffer, 0);
  if (n === 0) return 1;
  let leaves = 0;
  for (let i = 0; i < n; i++) {
    board.make(buffer[i]!);
    const below = leavesBelow(board, depth - 1, engine);
    board.unmake();
    leaves += below;
    output.out(`${game.rules.formatMove(buffer[i]!)}: ${below}`);
  }
  return leaves;
}
