import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { runMatch } from '../../arena/match.js';
import { MATCH_OPTIONS, matchArgs } from '../../arena/bot-spec.js';
import { allBotNames } from '../../registry.js';
import type { Command } from '../command.js';
import { parseCommandArgs } from '../command.js';
import { progressBar, UsageError, wholeNumberArg } from '../../tool-io.js';

const HELP = `Usage: boardroom arena --game G --a BOT --b BOT [--games N] [--seed N] [--threads N]
                       [--openings book|random] [--book FILE] [--records FILE] [--json]

Plays N games between bots A and B from the game's opening book (bots/openings/G.txt, openings
our deep search judges close to even): each opening is played twice, colours swapped. Prints
wins/draws/losses from A's side, the score, and the Elo difference with its 95% interval
(unbounded ends print as none). To decide whether a change is stronger, use boardroom sprt.

  --game G         othello, gomoku or minichess
  --a, --b BOT     a bot from the roster, or NAME@DIR for that bot in another checkout of this
                   repo with its dist/ built (so a change plays the build before it)
  --games N        games to play (default 40)
  --seed N         seed of the order of the openings (default 1)
  --openings K     book (default) or random: a few random plies from the start
  --book FILE      the openings of this book file instead of the game's (one judge-book wrote)
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
      ...MATCH_OPTIONS,
      games: { type: 'string' },
      threads: { type: 'string' },
      records: { type: 'string' },
      openings: { type: 'string' },
    });
    const { game, a, b, seed, book } = matchArgs('arena', values, positionals);
    const openings = values.openings ?? 'book';
    if (openings !== 'book' && openings !== 'random') throw new UsageError(`--openings is book or random, not "${openings}".`);
    if (openings === 'random' && book !== undefined) throw new UsageError('--book plays book openings: leave out --openings random.');
    const games = values.games === undefined ? 40 : wholeNumberArg('--games', values.games, 1, 100_000);
    const threads = values.threads === undefined ? availableParallelism() : wholeNumberArg('--threads', values.threads, 1, 64);

    const bar = progressBar(output, `${values.a} vs ${values.b}`, games);
    let result;
    try {
      result = await runMatch({ game: game.id, a, b, games, seed, threads, openings, book, onGame: (done) => bar.tick(done) });
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
