import type { Color } from '../../shared/color.js';
import { GAMES, type Position } from '../../shared/games.js';
import type { AnalysisScale, MoveJudgement, MoveMark, PlyEvaluation } from '../../shared/protocol/analysis.js';
import type { GameId, Rules } from '../../shared/rules.js';
import type { Bot } from '../bot.js';
import { WIN_THRESHOLD } from '../engine/game.js';
import { engineWithBudget } from '../roster.js';
import type { AnalysisJobInput, AnalysisJobResult, AnalysisProgress } from './contract.js';

/**
 * Each game's score scale and marks. The engine's scores are per game (Othello: its evaluation's
 * units, a few hundred early and thousands in a won middle game; Gomoku: line patterns, 15,000 for
 * a double three and 60,000 for a four; MiniChess: 100 a pawn), so each is turned into an expected
 * result by tanh(score / scale); a move's loss is measured on that scale, as Lichess measures
 * winning chances (0.1, 0.2, 0.3 for ?!, ?, ??). Gomoku's scores at a short budget are the
 * noisiest (its searches are 3 to 5 plies), so its marks ask for more.
 */
export const ANALYSIS_SCALES: Readonly<Record<GameId, AnalysisScale>> = {
  othello: { scale: 1500, cap: 4500, inaccuracy: 0.1, mistake: 0.2, blunder: 0.3 },
  gomoku: { scale: 20_000, cap: 60_000, inaccuracy: 0.15, mistake: 0.3, blunder: 0.5 },
  minichess: { scale: 500, cap: 1500, inaccuracy: 0.1, mistake: 0.2, blunder: 0.3 },
};

type Evaluation = Omit<PlyEvaluation, 'ply'>;

const round = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * Analyses a finished game in this thread: the engine searches every position for `budgetMs`
 * (one search, its transposition table kept from ply to ply), and every move that is not the
 * engine's own is compared with the engine's move by searching the position that move leads to,
 * so both sides of the comparison come from searches of the same side to move.
 */
export function analyseGame(input: AnalysisJobInput, onProgress?: (progress: AnalysisProgress) => void): AnalysisJobResult {
  const entry = GAMES[input.game];
  if (!entry) throw new Error(`unknown game "${String(input.game)}"`);
  const rules = entry.rules as Rules<Position>;
  const start = rules.parsePosition(input.start, input.options);
  if (!start.ok) throw new Error(`the start position cannot be read: ${start.error.message}`);
  const positions: Position[] = [start.value];
  const played: number[] = [];
  for (const text of input.moves) {
    const move = rules.parseMove(text);
    const before = positions[positions.length - 1]!;
    if (!move.ok || rules.check(before, move.value)) throw new Error(`move ${played.length + 1} (${text}) cannot be played`);
    played.push(move.value);
    positions.push(rules.play(before, move.value));
  }
  const scale = ANALYSIS_SCALES[input.game];
  const bot = engineWithBudget(input.game, input.budgetMs);
  const evaluate = (position: Position): Evaluation => evaluatePosition(bot, rules, scale, position, input.budgetMs);

  const evaluations: PlyEvaluation[] = [];
  for (const [ply, position] of positions.entries()) {
    evaluations.push({ ply, ...evaluate(position) });
    onProgress?.({ done: ply + 1, total: positions.length });
  }

  const moves: MoveJudgement[] = played.map((move, i) => {
    const position = positions[i]!;
    const color: Color = rules.toMove(position);
    const text = rules.formatMove(move);
    const best = evaluations[i]!.best;
    const sign = color === 'black' ? 1 : -1;
    let loss = 0;
    if (best !== null && best !== text && rules.legalMoves(position).length > 1) {
      const bestMove = rules.parseMove(best);
      if (bestMove.ok) {
        const afterBest = evaluate(rules.play(position, bestMove.value)).value;
        loss = Math.max(0, round(sign * (afterBest - evaluations[i + 1]!.value)));
      }
    }
    let mark: MoveMark | null = loss >= scale.blunder ? 'blunder' : loss >= scale.mistake ? 'mistake' : loss >= scale.inaccuracy ? 'inaccuracy' : null;
    // A proven win let go while still ahead is at most ?!, as Lichess marks a lost mate that still
    // wins: a short search after a slower winning move often cannot prove the win again.
    const wonBefore = evaluations[i]!.proven && sign * evaluations[i]!.value === 1;
    if (mark && wonBefore && sign * evaluations[i + 1]!.value > 0) mark = 'inaccuracy';
    return { ply: i + 1, move: text, color, loss, mark, best: mark ? best : null };
  });

  return { gameId: input.gameId, game: input.game, budgetMs: input.budgetMs, evaluations, moves, thresholds: scale, finishedAt: Date.now() };
}

/**
 * One position from black's view. A finished position is its outcome. A search that did not
 * search (the side to move had one move, or an opening move it knows) is read through the
 * position its move leads to, at most twice in a row.
 */
function evaluatePosition(bot: Bot, rules: Rules<Position>, scale: AnalysisScale, position: Position, budgetMs: number, through = 2): Evaluation {
  const outcome = rules.outcome(position);
  if (outcome) {
    const value = outcome.winner === 'black' ? 1 : outcome.winner === 'white' ? -1 : 0;
    return { value, score: value * scale.cap, proven: true, best: null, depth: 0 };
  }
  const report = bot.think(position, { deadline: performance.now() + budgetMs });
  const best = rules.formatMove(report.move);
  if (report.depth === 0 && through > 0) {
    return { ...evaluatePosition(bot, rules, scale, rules.play(position, report.move), budgetMs, through - 1), best, depth: 0 };
  }
  const sign = rules.toMove(position) === 'black' ? 1 : -1;
  const proven = Math.abs(report.score) >= WIN_THRESHOLD;
  const score = proven ? Math.sign(report.score) * scale.cap : Math.max(-scale.cap, Math.min(scale.cap, report.score));
  const value = proven ? Math.sign(report.score) : Math.tanh(score / scale.scale);
  return { value: round(sign * value), score: sign * score, proven, best, depth: report.depth };
}
