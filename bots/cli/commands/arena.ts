import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { GAMES } from '../../../shared/games.js';
import { runMatch } from '../../arena/match.js';
import { allBotNames, catalogEntry } from '../../catalog.js';
import type { Command } from '../command.js';
import { parseCommandArgs } from '../command.js';
import { gameArg, progressBar, UsageError, wholeNumberArg } from '../io.js';

const HELP = `Usage: boardroom arena --game G --a NAME --b NAME [--games N] [--seed N] [--threads N]
                       [--records FILE] [--json]

Plays N games between bots A and B from varied openings: each random opening of a few plies is
played twice, colours swapped. Prints wins/draws/losses from A's side, the score, and the Elo
difference with its 95% interval (unbounded ends print as none).

  --game G         othello, gomoku or minichess
  --a, --b NAME    bots from the roster (boardroom arena --game G --help lists them)
  --games N        games to play (default 40)
  --seed N         seed of the openings (default 1): the same seed gives the same openings
  --threads N      games played at once (default: one per core, ${availableParallelism()} here)
  --records FILE   write every game's record, one per line: first mover, result, moves
  --json           last line: {"games":40,"wins":..,"draws":..,"losses":..,"score":0.93,"elo":..,"elo95":[..,..]}

Bots: ${Object.entries(allBotNames())
  .map(([g, names]) => `\n  ${g}: ${names.join(', ')}`)
  .join('')}

Example: boardroom arena --game othello --a engine-2 --b seed-000 --games 40`;

export const arenaCommand: Command = {
  help: HELP,
  async run(argv, output) {
    const { values, positionals } = parseCommandArgs(argv, {
      game: { type: 'string' },
      a: { type: 'string' },
      b: { type: 'string' },
      games: { type: 'string' },
      seed: { type: 'string' },
      threads: { type: 'string' },
      records: { type: 'string' },
      json: { type: 'boolean' },
    });
    if (positionals.length > 0) throw new UsageError(`arena takes options only, not "${positionals.join(' ')}".`);
    const game = GAMES[gameArg(values.game)];
    for (const [flag, name] of [['--a', values.a], ['--b', values.b]] as const) {
      if (!name) throw new UsageError(`${flag} names a bot: ${allBotNames()[game.id].join(', ')}.`);
      if (!catalogEntry(game.id, name)) throw new UsageError(`${flag}: no bot "${name}" plays ${game.id}; choose ${allBotNames()[game.id].join(', ')}.`);
    }
    const games = values.games === undefined ? 40 : wholeNumberArg('--games', values.games, 1, 100_000);
    const seed = values.seed === undefined ? 1 : wholeNumberArg('--seed', values.seed, 0, 2 ** 31 - 1);
    const threads = values.threads === undefined ? availableParallelism() : wholeNumberArg('--threads', values.threads, 1, 64);

    const bar = progressBar(output, `${values.a} vs ${values.b}`, games);
    let result;
    try {
      result = await runMatch({ game: game.id, a: values.a!, b: values.b!, games, seed, threads, onGame: (done) => bar.tick(done) });
    } catch (error) {
      bar.end();
      output.err(`boardroom arena: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    }
    bar.end();

    if (values.records) {
      const lines = result.played.map((g) => {
        const first = g.aFirst ? values.a : values.b;
        const winner = g.outcome.winner ?? 'draw';
        return `${first} first; ${winner} ${g.outcome.reason}; ${g.moves.map((m) => game.rules.formatMove(m)).join(' ')}`;
      });
      writeFileSync(values.records, lines.join('\n') + '\n');
    }
    const { wins, draws, losses, score, elo, elo95 } = result;
    const show = (x: number | null): string => (x === null ? 'none' : `${x > 0 ? '+' : ''}${x}`);
    output.out(`${values.a} vs ${values.b}, ${game.id}, ${games} games: +${wins} =${draws} -${losses}`);
    output.out(`score ${(score * 100).toFixed(1)}%, Elo ${show(elo)} (95%: ${show(elo95[0])} to ${show(elo95[1])})`);
    if (values.json) output.out(JSON.stringify({ games, wins, draws, losses, score, elo, elo95 }));
    return 0;
  },
};
