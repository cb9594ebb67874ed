import { appendFileSync, readFileSync, truncateSync } from 'node:fs';
import { COLORS } from '../../shared/color.js';
import type { GameId } from '../../shared/rules.js';
import { UsageError } from '../tool-io.js';
import type { JudgedGame, JudgedOpening } from './book-judge.js';

/** A log's lines read back, and where a last line cut short by a stopped run begins, if one was. */
export interface ReadLog {
  readonly judged: JudgedOpening[];
  /** The byte offset of a truncated last line, and its line number. */
  readonly truncated?: { readonly at: number; readonly line: number };
  /** The last line is whole but has no newline: the next line must start one. */
  readonly unterminated: boolean;
}

const WINNERS: readonly string[] = [...COLORS, 'draw'];

const isJudgedGame = (g: unknown): g is JudgedGame => {
  const game = g as Partial<JudgedGame> | null;
  return typeof game === 'object' && game !== null && WINNERS.includes(game.winner as string) && typeof game.reason === 'string' && Number.isInteger(game.plies);
};

function judgedOpeningOf(line: string): JudgedOpening | undefined {
  let value: Partial<JudgedOpening> | null;
  try {
    value = JSON.parse(line) as Partial<JudgedOpening> | null;
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { opening, games, kept, bot, game } = value;
  const whole = typeof opening === 'string' && Array.isArray(games) && games.length === 2 && games.every(isJudgedGame) && typeof kept === 'boolean' && typeof bot === 'string' && typeof game === 'string';
  return whole ? (value as JudgedOpening) : undefined;
}

/**
 * Reads a judging log: one JSON line per judged opening. A last line without its newline that
 * does not read is one a stopped run was writing: reported, not refused. Any other line that does
 * not read, or one judged by another bot or game, is refused: that log is not this run's.
 */
export function readJudgingLog(text: string, path: string, game: GameId, bot: string): ReadLog {
  const lines = text.split('\n');
  const judged: JudgedOpening[] = [];
  let offset = 0;
  for (const [i, line] of lines.entries()) {
    const last = i === lines.length - 1;
    if (line.trim() !== '') {
      const read = judgedOpeningOf(line);
      if (!read && last) return { judged, truncated: { at: offset, line: i + 1 }, unterminated: false };
      if (!read) throw new UsageError(`${path}:${i + 1} is not a line of a judging log; give another --state.`);
      if (read.bot !== bot || read.game !== game) {
        throw new UsageError(`${path} judges ${read.bot} on ${read.game}, not ${bot} on ${game}: give another --state, or --bot ${read.bot} --game ${read.game}.`);
      }
      judged.push(read);
    }
    offset += Buffer.byteLength(line) + 1;
  }
  return { judged, unterminated: text !== '' && !text.endsWith('\n') };
}

/** The judging log of a run: what earlier runs judged, and a line appended for each opening judged now. */
export class JudgingLog {
  private constructor(
    private readonly path: string,
    readonly judged: JudgedOpening[],
    private truncatedAt: number | undefined,
    private unterminated: boolean,
  ) {}

  /** Opens the log at `path` (none there yet: an empty one), checked readable, writable and this run's. */
  static open(path: string, game: GameId, bot: string, warn: (line: string) => void): JudgingLog {
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`--state: cannot read ${path}: ${(error as Error).message}`);
    }
    const read = readJudgingLog(text, path, game, bot);
    try {
      appendFileSync(path, '');
    } catch (error) {
      throw new UsageError(`--state: cannot write ${path}: ${(error as Error).message}`);
    }
    if (read.truncated) warn(`${path}:${read.truncated.line}: a line cut short (a run stopped while writing it) is left out; its opening is judged again.`);
    return new JudgingLog(path, read.judged, read.truncated?.at, read.unterminated);
  }

  get kept(): JudgedOpening[] {
    return this.judged.filter((j) => j.kept);
  }

  /** Appends an opening's line at once, so that a run stopped later keeps it. */
  append(judged: JudgedOpening): void {
    if (this.truncatedAt !== undefined) truncateSync(this.path, this.truncatedAt);
    appendFileSync(this.path, `${this.unterminated ? '\n' : ''}${JSON.stringify(judged)}\n`);
    this.truncatedAt = undefined;
    this.unterminated = false;
    this.judged.push(judged);
  }
}
