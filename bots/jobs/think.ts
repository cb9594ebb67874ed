import { GAMES } from '../../shared/games.js';
import type { SearchReport } from '../engine/game.js';
import { findBot } from '../roster.js';
import type { BotJobInput, BotJobResult, BotThinking } from './contract.js';

/** Runs one bot job in this thread: the bot thinks to its budget and answers in notation. */
export function thinkMove(input: BotJobInput, onThinking?: (thinking: BotThinking) => void): BotJobResult {
  const game = GAMES[input.game];
  if (!game) throw new Error(`unknown game "${String(input.game)}"`);
  const bot = findBot(input.game, input.bot);
  if (!bot) throw new Error(`no bot "${input.bot}" plays ${input.game}`);
  const format = (r: SearchReport): BotThinking => ({
    depth: r.depth,
    score: r.score,
    pv: r.pv.map((m) => game.rules.formatMove(m)),
    nodes: r.nodes,
    nps: r.nps,
    ms: Math.round(r.ms),
  });
  const left = input.deadline == null ? Infinity : input.deadline - Date.now();
  const budget = Math.max(1, Math.min(input.budgetMs, bot.budgetMs || input.budgetMs, left));
  const report = bot.think(input.position, {
    deadline: performance.now() + budget,
    ...(onThinking ? { onProgress: (r: SearchReport) => onThinking(format(r)) } : {}),
  });
  return { gameId: input.gameId, ply: input.ply, game: input.game, bot: input.bot, move: game.rules.formatMove(report.move), ...format(report) };
}
