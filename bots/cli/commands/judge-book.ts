import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { GAMES } from '../../../shared/games.js';
import { checkBotSpec } from '../../arena/bot-spec.js';
import { gamesText, judgedBookText, judgeOpenings, type JudgedOpening } from '../../arena/book-judge.js';
import { JudgingLog } from '../../arena/judging-log.js';
import { bookArg, bookPath } from '../../arena/openings.js';
import type { Command } from '../command.js';
import { parseCommandArgs } from '../command.js';
import { gameArg, numberArg, UsageError, wholeNumberArg } from '../../tool-io.js';

const HELP = `Usage: boardroom judge-book --state FILE [--game G] [--bot BOT] [--keep N] [--book FILE]
                            [--threads N] [--minutes M] [--write-book FILE] [--json]

Judges an opening book by self-play: each opening, in book order, is played twice by BOT against
itself, colours swapped, and kept when the two games split strictly, one won by each colour (a
draw splits nothing). Stops once N openings are kept, the book is judged or M minutes are up.
Each opening's verdict is appended to the state file as soon as both its games end: a run stopped
(Ctrl-C loses only the openings in play) and started again with the same --state judges the rest.

  --state FILE       the judging log, a JSON line per opening (required; made when missing)
  --game G           othello, gomoku or minichess (default gomoku)
  --bot BOT          the bot that plays itself (default engine-4, 1 s a move), or NAME@DIR
  --keep N           stop once N openings are kept, earlier runs' counted (default 25)
  --book FILE        the candidate openings (default the game's book, bots/openings/G.txt)
  --threads N        games played at once, two per opening (default: one per core, ${availableParallelism()} here)
  --minutes M        start no opening after M minutes (those in play finish)
  --write-book FILE  write the kept openings as a book, its header saying how they were judged
  --json             last line: {"judged":..,"judgedNow":..,"kept":..,"keep":..,"splitRate":..,"stopped":"keep"|"book"|"minutes"}

Example: boardroom judge-book --state gomoku-judging.jsonl --minutes 120 --write-book bots/openings/gomoku-even.txt`;

/** 75 s as 1m15s, 3,900 s as 1h05m. */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor(s / 60) % 60).padStart(2, '0')}m`;
}

/**
 * A rough time left: this run's time per opening, times the openings that the split rate so far
 * says are still needed (all those left while none is kept), within the minutes left.
 */
export function etaMs(p: { elapsedMs: number; judgedNow: number; judged: number; kept: number; keep: number; left: number; msLeft: number }): number | undefined {
  if (p.judgedNow === 0) return undefined;
  const rate = p.kept / p.judged;
  const needed = p.kept >= p.keep ? 0 : rate > 0 ? Math.min(p.left, Math.ceil((p.keep - p.kept) / rate)) : p.left;
  return Math.max(0, Math.min((needed * p.elapsedMs) / p.judgedNow, p.msLeft));
}

export const judgeBookCommand: Command = {
  help: HELP,
  async run(argv, output) {
    const { values, positionals } = parseCommandArgs(argv, {
      game: { type: 'string' },
      bot: { type: 'string' },
      state: { type: 'string' },
      keep: { type: 'string' },
      book: { type: 'string' },
      threads: { type: 'string' },
      minutes: { type: 'string' },
      'write-book': { type: 'string' },
      json: { type: 'boolean' },
    });
    if (positionals.length > 0) throw new UsageError(`judge-book takes options only, not "${positionals.join(' ')}".`);
    const game = GAMES[gameArg(values.game ?? 'gomoku')];
    const bot = checkBotSpec('--bot', game.id, values.bot ?? 'engine-4');
    if (values.state === undefined) throw new UsageError('--state FILE names the judging log: made when missing, read to go on where a run stopped.');
    const keep = values.keep === undefined ? 25 : wholeNumberArg('--keep', values.keep, 1, 100_000);
    const threads = values.threads === undefined ? availableParallelism() : wholeNumberArg('--threads', values.threads, 1, 64);
    const minutes = numberArg('--minutes', values.minutes, Infinity, 0.01);
    const bookName = values.book ?? `bots/openings/${game.id}.txt`;
    const book = bookArg(game, values.book ?? bookPath(game.id));
    const log = JudgingLog.open(values.state, game.id, bot, output.err);

    const format = (moves: readonly number[]): string => moves.map((m) => game.rules.formatMove(m)).join(' ');
    const judgedBefore = new Set(log.judged.map((j) => j.opening));
    const left = book.filter((moves) => !judgedBefore.has(format(moves)));
    const started = performance.now();
    let judgedNow = 0;
    const progress = (j: JudgedOpening): string => {
      const elapsedMs = performance.now() - started;
      const eta = etaMs({ elapsedMs, judgedNow, judged: log.judged.length, kept: log.kept.length, keep, left: left.length - judgedNow, msLeft: minutes * 60_000 - elapsedMs });
      const head = `judged ${log.judged.length} (${judgedNow} now), kept ${log.kept.length} of ${keep}, ${duration(elapsedMs)}, ETA ${eta === undefined ? '?' : `~${duration(eta)}`}`;
      return `${head}: ${j.opening}: ${gamesText(j)}: ${j.kept ? 'kept' : 'not kept'}`;
    };

    output.err(`judging ${left.length} openings of ${bookName} (${book.length - left.length} judged before, ${log.kept.length} kept) by ${bot} self-play, ${threads} games at once`);
    try {
      await judgeOpenings({
        game: game.id,
        bot,
        openings: left,
        threads,
        goOn: () => log.kept.length < keep && performance.now() - started < minutes * 60_000,
        onJudged: (j) => {
          log.append(j);
          judgedNow++;
          output.err(progress(j));
        },
      });
    } catch (error) {
      output.err(`boardroom judge-book: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    }

    const judged = log.judged.length;
    const kept = log.kept.length;
    const stopped = kept >= keep ? 'keep' : judgedNow === left.length ? 'book' : 'minutes';
    const why = { keep: `${keep} kept`, book: 'the book is judged', minutes: `${minutes} minutes are up` }[stopped];
    const splitRate = judged === 0 ? 0 : kept / judged;
    output.out(`${bot} on ${game.id}: judged ${judged} (${judgedNow} now), kept ${kept} of ${keep}, split rate ${(splitRate * 100).toFixed(1)}%; stopped: ${why}`);
    const writeBook = values['write-book'];
    if (writeBook !== undefined) {
      try {
        writeFileSync(writeBook, judgedBookText(log.judged, { game: game.id, bot, book: bookName }));
      } catch (error) {
        throw new UsageError(`--write-book: cannot write ${writeBook}: ${(error as Error).message}`);
      }
      output.out(`wrote ${writeBook}: ${kept} kept of ${judged} judged`);
    }
    if (values.json) output.out(JSON.stringify({ judged, judgedNow, kept, keep, splitRate, stopped }));
    return 0;
  },
};
