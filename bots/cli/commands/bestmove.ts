import { GAMES, type Game, type Position } from '../../../shared/games.js';
import { replay } from '../../../shared/record.js';
import type { ThinkLimits } from '../../bot.js';
import type { SearchReport } from '../../engine/game.js';
import { allBotNames, loadBot, loadEngine } from '../../registry.js';
import type { Command } from '../command.js';
import { parseCommandArgs } from '../command.js';
import { gameArg, UsageError, wholeNumberArg, type Output } from '../../tool-io.js';
import { positionArg } from './position.js';

const HELP = `Usage: boardroom bestmove <game> [--position TEXT] [--moves "M1 M2 …"] [--bot NAME | --ms N | --depth N | --nodes N] [--json]

Searches a position and prints the best move, its score (for the side to move), the depth
reached, the nodes searched, the principal variation and the time; one line per finished depth
as it goes.

  <game>             othello, gomoku or minichess
  --position TEXT    the position (default: the start), in the game's notation (see perft --help)
  --moves "M1 M2 …"  these moves played first, from the start (or --position): a game's record as
                     the web client or play shows it ("f5 d6 c3"; "f5d6c3" is read too); the
                     first move that cannot be played is named, with its number and why
  --bot NAME         think as a roster bot, to its own budget (counted the same way): ${Object.values(allBotNames())
  .flat()
  .filter((n, i, a) => a.indexOf(n) === i)
  .join(', ')}
  --ms N             the engine, answering N ms after the command started (Node's start-up and
                     the loading of the engine included); default 1000
  --depth N          the engine, as the bots run it, to depth N exactly (no time limit)
  --nodes N          the engine, as the bots run it, stopped after about N nodes (deterministic)
  --json             last line: {"move":"a2","score":38,"depth":12,"nodes":123456,"pv":["a2","b1"],"ms":812}

Examples: boardroom bestmove othello --moves "f5 d6 c3" --ms 300
          boardroom bestmove othello --position "$(boardroom play othello f5 d6 --json | jq -r .position)" --ms 300`;

/** Time kept back from the budget for printing the answer and leaving the process. */
const ANSWER_MARGIN_MS = 10;

export const bestmoveCommand: Command = {
  help: HELP,
  async run(argv, output, startedAt) {
    const { values, positionals } = parseCommandArgs(argv, {
      position: { type: 'string' },
      moves: { type: 'string' },
      bot: { type: 'string' },
      ms: { type: 'string' },
      depth: { type: 'string' },
      nodes: { type: 'string' },
      json: { type: 'boolean' },
    });
    if (positionals.length > 1) throw new UsageError(`bestmove takes one game, not "${positionals.join(' ')}".`);
    const game = GAMES[gameArg(positionals[0])];
    const position = afterMoves(game, positionArg(game, values.position), values.moves);
    if (game.rules.outcome(position)) throw new UsageError('The game is over in that position: there is no move to find.');
    const chosen = [values.bot, values.ms, values.depth, values.nodes].filter((v) => v !== undefined);
    if (chosen.length > 1) throw new UsageError('Give one of --bot, --ms, --depth or --nodes.');

    const progress = (r: SearchReport): void => {
      if (!values.json) output.out(`depth ${r.depth}  score ${r.score}  nodes ${r.nodes}  ${Math.round(r.ms)} ms  pv ${pvText(game, r.pv)}`);
    };
    let bot;
    let limits: ThinkLimits;
    if (values.depth !== undefined || values.nodes !== undefined) {
      const maxDepth = values.depth === undefined ? undefined : wholeNumberArg('--depth', values.depth, 1, 60);
      const nodeLimit = values.nodes === undefined ? undefined : wholeNumberArg('--nodes', values.nodes, 1, 1e12);
      bot = await loadEngine(game.id, Infinity);
      limits = { deadline: Infinity, maxDepth, nodeLimit, onProgress: progress };
    } else {
      if (values.bot !== undefined) {
        bot = await loadBot(game.id, values.bot);
        if (!bot) throw new UsageError(`No bot "${values.bot}" plays ${game.id}; choose ${allBotNames()[game.id].join(', ')}.`);
      } else {
        bot = await loadEngine(game.id, values.ms === undefined ? 1000 : wholeNumberArg('--ms', values.ms, 1, 3_600_000));
      }
      limits = { deadline: startedAt + bot.budgetMs - ANSWER_MARGIN_MS, onProgress: progress };
    }
    const report = bot.think(position, limits);
    print(game, report, values.json === true, output);
    return 0;
  },
};

/** The position after `moves` (none: `from` itself); the first move that cannot be played stops it, named. */
function afterMoves(game: Game, from: Position, moves: string | undefined): Position {
  if (moves === undefined) return from;
  const played = replay(game.rules, from, moves);
  if (!played.ok) {
    const { index, move, code, message } = played.error;
    throw new UsageError(`Move ${index + 1} of --moves, "${move}", cannot be played: ${code}: ${message}`);
  }
  return played.value.positions.at(-1)!;
}

function pvText(game: Game, pv: readonly number[]): string {
  return pv.map((m) => game.rules.formatMove(m)).join(' ');
}

function print(game: Game, r: SearchReport, json: boolean, output: Output): void {
  const move = game.rules.formatMove(r.move);
  const ms = Math.round(r.ms * 10) / 10;
  if (json) {
    output.out(JSON.stringify({ move, score: r.score, depth: r.depth, nodes: r.nodes, pv: r.pv.map((m) => game.rules.formatMove(m)), ms }));
    return;
  }
  output.out(`best move ${move}  score ${r.score}  depth ${r.depth}  nodes ${r.nodes}  ${ms} ms  pv ${pvText(game, r.pv)}`);
}
