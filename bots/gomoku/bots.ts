import { GomokuBoard, type GomokuPosition, LINE_STEPS, pointOfBoardIndex, POINTS, SIZE } from '../../shared/gomoku/board.js';
import type { Position } from '../../shared/games.js';
import type { Bot, GameBots, ThinkLimits } from '../bot.js';
import { WIN, type SearchReport } from '../engine/game.js';
import { search } from '../engine/search.js';
import { TranspositionTable } from '../engine/table.js';
import { GomokuSearchBoard } from './search-board.js';
import { seed001Move, SEED001_BREADTH, SEED001_DEPTH } from './seed001.js';
import { seed002Move } from './seed002.js';
import { findVcf, movesThatStop } from './vcf.js';
import { findVct } from './vct.js';

function gomokuPosition(position: Position, bot: string): GomokuPosition {
  if (position.game !== 'gomoku') throw new Error(`${bot} plays Gomoku, not ${position.game}.`);
  return position;
}

function reportOf(move: number, score: number, depth: number, nodes: number, pv: readonly number[], started: number): SearchReport {
  const ms = performance.now() - started;
  return { move, score, depth, nodes, pv, ms, nps: ms > 0 ? Math.round((nodes * 1000) / ms) : 0 };
}

/** Quiet candidates the engine searches at each node, best first by pattern gain; threats are never cut. */
export const ENGINE_BREADTH = 12;
/**
 * Straight to quiescence at the horizon (`generateNoisyMoves` reports a finished game): the same
 * moves and scores to a fixed depth in about 20% less time than generating every move there first.
 * The answer comes from the deepest odd depth, ending on the engine's own move: scores swing by
 * several hundred from one depth to the next, and as white against seed-001 the odd depths' moves
 * won 154 of 200 games (seeds 1–10 of the arena's openings), the even depths' 59 of 100 (seeds
 * 1–5), the deepest depth's 136 of 200.
 */
export const ENGINE_SEARCH_OPTIONS = { quiescenceAtHorizon: true, answerFromOddDepths: true } as const; // no ProbCut: −14.8 Elo ± 28.6, 282 games (SPRT H0)
/**
 * Attacker threats a VCT line of ours may use, and its node limit below: with 6 threats and
 * 12,000 nodes instead of 4 and 3000, white won 194 of 300 games against seed-001 (seeds 1–15 of
 * the arena's openings) instead of 183; within the noise of 300 games, but ahead in each batch of
 * five seeds, for the same code.
 */
const VCT_DEPTH = 6;
/** Attacker threats a VCT line of the opponent's may use: the wins seed-001 found against us took 5 or 6. */
const THEIR_VCT_DEPTH = 6;
/**
 * Node limits: a VCF or VCT that exists is usually found in a few hundred nodes with good
 * ordering, while proving that none exists can take far more; so the checks are short, and an
 * unfinished one counts as "no win".
 */
const OWN_VCF_NODES = 20_000;
const OWN_VCT_NODES = 12_000;
const THEIR_VCF_NODES = 20_000;
const THEIR_VCT_NODES = 5000;
const DEFENCE_VCF_NODES = 2000;
const DEFENCE_VCT_NODES = 3000;
/**
 * The opponent's threats are checked from this many stones on. Before, a pass nearly always
 * loses (two stones in a row for the opponent), so the checks of our replies tell little and
 * took up to 75% of the move's time: against seed-001, white won 133 of 200 games without them
 * in the opening and 121 of 200 with them (the arena's openings of seeds 7–16); on seeds 17–26,
 * 127 of 200, as many as before (docs/engine/gomoku.md).
 */
const DEFENCE_FROM_STONES = 10;
/** By when (as a share of the move's time) each step before the main search must be done. */
const OWN_VCF_BY = 0.1;
const OWN_VCT_BY = 0.25;
const THEIR_THREAT_BY = 0.35;
const DEFENCE_BY = 0.75;
/** The score reported for a VCT win, whose length is not counted: a forced win all the same. */
const VCT_WIN_SCORE = WIN - 2 * VCT_DEPTH - 1;

/**
 * Does the side to move have a win by fours, or by threats, within the limits? When `played` is
 * given, the points the searches played are marked in it (1 attacker, 2 defender).
 */
function threatWin(
  board: GomokuSearchBoard,
  deadline: number,
  vcfNodes: number,
  vctNodes: number,
  played?: Uint8Array,
): { won: boolean; stopped: boolean; nodes: number } {
  const vcf = findVcf(board, { deadline, nodeLimit: vcfNodes });
  if (vcf.sequence.length > 0) {
    if (played) vcf.sequence.forEach((move, i) => (played[move] = played[move]! | (i % 2 === 0 ? 1 : 2)));
    return { won: true, stopped: false, nodes: vcf.nodes };
  }
  const vct = findVct(board, { deadline, nodeLimit: vctNodes, maxDepth: THEIR_VCT_DEPTH, ...(played ? { played } : {}) });
  return { won: vct.move >= 0, stopped: vcf.stopped || vct.stopped, nodes: vcf.nodes + vct.nodes };
}

/**
 * The points that can break a threat sequence whose moves are marked in `played` (1 attacker,
 * 2 defender): those moves themselves, and the points within four of an attacker's move along its
 * lines (where the threats' stones and gaps lie). Elsewhere only a counter-threat helps.
 */
function pointsNearThreats(played: Uint8Array): Uint8Array {
  const near = new Uint8Array(POINTS);
  for (let point = 0; point < POINTS; point++) {
    if (played[point] === 0) continue;
    near[point] = 1;
    if ((played[point]! & 1) === 0) continue;
    const file = point % SIZE;
    const rank = (point - file) / SIZE;
    for (const [df, dr] of LINE_STEPS) {
      for (let k = -4; k <= 4; k++) {
        const f = file + k * df;
        const r = rank + k * dr;
        if (f >= 0 && f < SIZE && r >= 0 && r < SIZE) near[r * SIZE + f] = 1;
      }
    }
  }
  return near;
}

/**
 * Step 2 of the engine below: when the opponent would win by fours or threats if we passed,
 * narrows the root to our replies after which it has none. Returns the nodes spent.
 */
function narrowToDefences(board: GomokuSearchBoard, by: (share: number) => number): number {
  board.pass();
  const played = new Uint8Array(POINTS);
  const theirs = threatWin(board, by(THEIR_THREAT_BY), THEIR_VCF_NODES, THEIR_VCT_NODES, played);
  board.unpass();
  if (!theirs.won) return theirs.nodes;
  const near = pointsNearThreats(played);
  const us = board.sideToMove;
  const defence = movesThatStop(
    board,
    (b) => threatWin(b, by(DEFENCE_BY), DEFENCE_VCF_NODES, DEFENCE_VCT_NODES),
    by(DEFENCE_BY),
    (move) => near[move] === 1,
    (move) => board.threatsAt(move, us) > 0,
  );
  // Where the opponent has a threat sequence, a check cut short almost always hides a refutation.
  const kept = defence.proven.length > 0 ? defence.proven : defence.unrefuted;
  board.restrictMoves(kept.length > 0 ? kept : defence.sensible);
  return theirs.nodes + defence.nodes;
}

/**
 * The strong engine, in steps, each with its share of the move's time:
 * 1. our win by continuous fours (VCF), then by continuous threats (VCT): play it;
 * 2. from DEFENCE_FROM_STONES stones on, the opponent's VCF or VCT as if it were to move: if
 *    there is one, keep only our moves after which it has none, checking our own threes and fours
 *    first (a counter-threat is quick to prove and often the only defence), then the points near
 *    that threat sequence. The moves proven safe are kept; only when none is, those whose check
 *    ran out of nodes; and when every check found a win, all moves (the search then finds the
 *    longest defence);
 * 3. the generic search on a `GomokuSearchBoard`, with a transposition table kept between moves.
 */
export function createGomokuEngineBot(name: string, budgetMs: number): Bot {
  let table: TranspositionTable | undefined;
  return {
    name,
    game: 'gomoku',
    description: `Alpha-beta engine (PVS, transposition table, incremental line patterns, forced replies to fours and threes, VCF and VCT searches for both sides), ${budgetMs} ms a move.`,
    budgetMs,
    think(position: Position, limits: ThinkLimits): SearchReport {
      const started = performance.now();
      const deadline = Math.min(limits.deadline, started + budgetMs);
      const by = (share: number): number => started + (deadline - started) * share;
      const board = GomokuSearchBoard.fromPosition(gomokuPosition(position, name), {
        breadth: ENGINE_BREADTH,
        rootBreadth: ENGINE_BREADTH,
        quiescence: true,
      });
      try {
        if (board.isOver) throw new Error(`${name} was given a position whose game is over.`);
        const progress = (report: SearchReport): SearchReport => {
          limits.onProgress?.(report);
          return report;
        };

        const vcf = findVcf(board, { deadline: by(OWN_VCF_BY), nodeLimit: OWN_VCF_NODES });
        let nodes = vcf.nodes;
        if (vcf.sequence.length > 0) {
          return progress(reportOf(vcf.sequence[0]!, WIN - vcf.sequence.length, vcf.sequence.length, nodes, vcf.sequence, started));
        }
        const vct = findVct(board, { deadline: by(OWN_VCT_BY), nodeLimit: OWN_VCT_NODES, maxDepth: VCT_DEPTH });
        nodes += vct.nodes;
        if (vct.move >= 0) return progress(reportOf(vct.move, VCT_WIN_SCORE, 2 * VCT_DEPTH + 1, nodes, [vct.move], started));

        if (board.stoneCount >= DEFENCE_FROM_STONES) nodes += narrowToDefences(board, by);

        table ??= new TranspositionTable(20);
        // A node limit counts the steps' nodes too: the main search gets what they left.
        const nodeLimit = limits.nodeLimit === undefined ? undefined : Math.max(1, limits.nodeLimit - nodes);
        const found = search(board, { ...ENGINE_SEARCH_OPTIONS, deadline, table, maxDepth: limits.maxDepth, nodeLimit, onProgress: limits.onProgress });
        return reportOf(found.move, found.score, found.depth, found.nodes + nodes, found.pv, started);
      } finally {
        board.release();
      }
    },
  };
}

/**
 * Seed 001's bot remembers the board after its own move, so that on its next turn it can tell
 * the opponent's last stone (the centre of its last level's ring scan) from the position alone.
 */
let seed001Before: string | undefined;

function opponentsLastStone(position: GomokuPosition): number {
  const before = seed001Before;
  if (before === undefined || before.length !== position.board.length) return -1;
  let added = -1;
  for (let index = 0; index < POINTS; index++) {
    if (before[index] === position.board[index]) continue;
    if (before[index] !== '.' || added >= 0) return -1;
    added = index;
  }
  return added < 0 ? -1 : pointOfBoardIndex(added);
}

export const seed001: Bot = {
  name: 'seed-001',
  game: 'gomoku',
  description: `Seed 001: precomputed line-pattern values, alpha-beta to depth ${SEED001_DEPTH} over the ${SEED001_BREADTH} best points per node (the last finished depth within 1 s).`,
  budgetMs: 1000,
  think(position: Position, limits: ThinkLimits): SearchReport {
    const started = performance.now();
    const gomoku = gomokuPosition(position, 'seed-001');
    const board = GomokuBoard.fromPosition(gomoku);
    const found = seed001Move(board, Math.min(limits.deadline, started + 1000), opponentsLastStone(gomoku));
    board.make(found.move);
    seed001Before = board.toPosition().board;
    const score = Math.max(-WIN + 1, Math.min(WIN - 1, found.value));
    const report = reportOf(found.move, score, found.depth, found.nodes, [found.move], started);
    limits.onProgress?.(report);
    return report;
  },
};

export const seed002: Bot = {
  name: 'seed-002',
  game: 'gomoku',
  description: 'Seed 002: one ply, each point scored by priority tiers worth ten times the next (win, block five, open four, four, block open four, open three, …).',
  budgetMs: 100,
  think(position: Position): SearchReport {
    const started = performance.now();
    const board = GomokuBoard.fromPosition(gomokuPosition(position, 'seed-002'));
    const found = seed002Move(board);
    return reportOf(found.move, 0, 1, POINTS - board.stoneCount, [found.move], started);
  },
};

export const GOMOKU_BOTS: GameBots = { engine: createGomokuEngineBot, seeds: [seed001, seed002] };
