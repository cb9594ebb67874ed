import { availableParallelism } from 'node:os';
import { MATCH_OPTIONS, matchArgs } from '../../arena/bot-spec.js';
import { runSprt, type SprtProgress } from '../../arena/sprt-match.js';
import { allBotNames } from '../../registry.js';
import type { Command } from '../command.js';
import { parseCommandArgs } from '../command.js';
import { numberArg, UsageError, wholeNumberArg } from '../../tool-io.js';

const HELP = `Usage: boardroom sprt --game G --a BOT --b BOT [--elo0 0] [--elo1 5] [--alpha 0.05] [--beta 0.05]
                      [--concurrency N] [--max-pairs N] [--seed N] [--book FILE] [--json]

Decides whether A is stronger than B by a sequential probability ratio test, as fishtest and
OpenBench decide engine changes: game pairs on the opening book (each opening twice, colours
swapped), the pentanomial log-likelihood ratio of H1 "A is elo1 stronger" against H0 "A is elo0
stronger" (logistic Elo), until it crosses ln(beta/(1-alpha)) (H0) or ln((1-beta)/alpha) (H1).
Prints a progress line after each pair: games, W/D/L, LLR against its bounds, Elo ± 95%.

  --game G          othello, gomoku or minichess
  --a, --b BOT      a bot from the roster, or NAME@DIR for that bot in another checkout of this
                    repo with its dist/ built: --a engine-2 --b engine-2@../before
  --elo0, --elo1    the hypotheses' Elo differences (default 0 and 5)
  --alpha, --beta   the error rates (default 0.05 each)
  --concurrency N   games played at once (default ${availableParallelism()}, one per core; use 1 or 2 on two cores)
  --max-pairs N     stop undecided after N pairs (default 100000)
  --seed N          seed of the order of the openings (default 1)
  --book FILE       the openings of this book file instead of the game's (one judge-book wrote)
  --json            last line: {"verdict":"H1","llr":..,"pairs":..,"wins":..,"draws":..,"losses":..,"elo":..,"elo95":[..,..],"pentanomial":[..]}

Exit code 0 when the test ends in H1 or H0, 3 when it stopped undecided.

Bots: ${Object.entries(allBotNames())
  .map(([g, names]) => `\n  ${g}: ${names.join(', ')}`)
  .join('')}

Example: boardroom sprt --game othello --a engine-2 --b engine-2@/tmp/before --elo1 50 --concurrency 2`;

export function progressLine(p: SprtProgress): string {
  const games = p.wins + p.draws + p.losses;
  const elo = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(1)}`;
  const half = (p.elo95[1] - p.elo95[0]) / 2;
  return `games ${games} W/D/L ${p.wins}/${p.draws}/${p.losses} pairs [${p.counts.join(', ')}] LLR ${p.llr.toFixed(2)} (${p.lower.toFixed(2)}, ${p.upper.toFixed(2)}) Elo ${elo(p.elo)} ± ${half.toFixed(1)}`;
}

export const sprtCommand: Command = {
  help: HELP,
  async run(argv, output) {
    const { values, positionals } = parseCommandArgs(argv, {
      ...MATCH_OPTIONS,
      elo0: { type: 'string' },
      elo1: { type: 'string' },
      alpha: { type: 'string' },
      beta: { type: 'string' },
      concurrency: { type: 'string' },
      'max-pairs': { type: 'string' },
    });
    const { game, a, b, seed, book } = matchArgs('sprt', values, positionals);
    const elo0 = numberArg('--elo0', values.elo0, 0, -1000, 1000);
    const elo1 = numberArg('--elo1', values.elo1, 5, -1000, 1000);
    if (elo1 <= elo0) throw new UsageError(`--elo1 (${elo1}) must be above --elo0 (${elo0}).`);
    const alpha = numberArg('--alpha', values.alpha, 0.05, 0.0001, 0.5);
    const beta = numberArg('--beta', values.beta, 0.05, 0.0001, 0.5);
    const threads = values.concurrency === undefined ? availableParallelism() : wholeNumberArg('--concurrency', values.concurrency, 1, 64);
    const maxPairs = values['max-pairs'] === undefined ? 100_000 : wholeNumberArg('--max-pairs', values['max-pairs'], 1, 10_000_000);

    output.err(`SPRT ${values.a} vs ${values.b}, ${game.id}: H0 elo ${elo0}, H1 elo ${elo1}, alpha ${alpha}, beta ${beta}, ${threads} at once`);
    let result: SprtProgress;
    try {
      result = await runSprt({ game: game.id, a, b, bounds: { elo0, elo1, alpha, beta }, seed, book, threads, maxPairs, onPair: (p) => output.err(progressLine(p)) });
    } catch (error) {
      output.err(`boardroom sprt: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    }
    const verdict = result.verdict ?? 'undecided';
    output.out(`${values.a} vs ${values.b}, ${game.id}: ${verdict === 'undecided' ? 'undecided' : `${verdict} accepted`}; ${progressLine(result)}`);
    if (values.json) {
      const { llr, pairs, wins, draws, losses, elo, elo95, counts } = result;
      output.out(JSON.stringify({ verdict, llr, pairs, wins, draws, losses, elo, elo95, pentanomial: counts }));
    }
    return result.verdict ? 0 : 3;
  },
};
