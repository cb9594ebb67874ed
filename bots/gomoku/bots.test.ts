import { describe, expect, it } from 'vitest';
import { GomokuBoard } from '../../shared/gomoku/board.js';
import { formatMove } from '../../shared/gomoku/notation.js';
import { gomokuRules } from '../../shared/gomoku/rules.js';
import type { Bot } from '../bot.js';
import { WIN_THRESHOLD } from '../engine/game.js';
import { createGomokuEngineBot, seed001, seed002 } from './bots.js';
import { linesCore } from './patterns-core.js';
import { points, positionOf } from './test-positions.js';

const ENGINE = createGomokuEngineBot('engine-test', 100);
const BOTS: readonly Bot[] = [seed001, seed002, ENGINE];

function think(bot: Bot, black: string, white: string, exactFive = false) {
  return bot.think(positionOf(black, white, exactFive), { deadline: performance.now() + 2000 });
}

// Positions constructed for these tests; the side to move follows from the counts (equal: black).
describe.each(BOTS.map((bot) => [bot.name, bot] as const))('%s', (_, bot) => {
  it('opens on h8 and answers with a legal move in a few random positions', () => {
    expect(formatMove(bot.think(gomokuRules.start(), { deadline: performance.now() + 2000 }).move)).toBe('h8');
    let state = 5;
    const random = (n: number) => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return (state >>> 8) % n;
    };
    for (let game = 0; game < 3; game++) {
      const board = GomokuBoard.empty();
      for (let ply = 0; ply < 6 + game * 4; ply++) {
        const move = (4 + random(7)) * 15 + 4 + random(7);
        if (board.problemWith(move) === undefined) board.make(move);
      }
      if (board.isOver) continue;
      const position = board.toPosition();
      const report = bot.think(position, { deadline: performance.now() + 1500 });
      expect(gomokuRules.check(position, report.move)).toBeUndefined();
    }
  });

  it('takes a five', () => {
    expect(['g8', 'l8']).toContain(formatMove(think(bot, 'h8 i8 j8 k8', 'h10 j10 l10 n12').move));
  });

  it('blocks a five', () => {
    expect(formatMove(think(bot, 'h8 i8 j8 k8 c3', 'g8 h10 j10 n12').move)).toBe('l8');
  });

  it("blocks an open three before it becomes an open four (white's h10 i10 j10)", () => {
    // Black to move; g10 or k10 stop the open four. (A far block does not: white then makes k10 or g10 with room.)
    const move = formatMove(think(bot, 'c3 c5 m3', 'h10 i10 j10').move);
    expect(['g10', 'k10']).toContain(move);
  });
});

describe('seed-002', () => {
  it('makes an open four rather than block a plain three', () => {
    // Black to move: h8 i8 j8 open (g8 or k8 makes an open four); white's c12 d12 e12 is a three, not yet a four.
    const move = formatMove(think(seed002, 'h8 i8 j8 a1', 'c12 d12 e12 o15').move);
    expect(['g8', 'k8']).toContain(move);
  });

  it('scores by the report tiers: a win outranks blocking a win', () => {
    // Both sides have four in a row; black to move wins rather than blocks.
    const move = formatMove(think(seed002, 'h8 i8 j8 k8 a1', 'h10 i10 j10 k10 o15').move);
    expect(['g8', 'l8']).toContain(move);
  });

  it('does not count a six as a win under exactFive', () => {
    // f8 g8 _ i8 j8 k8: h8 makes six. Under exactFive black has no win there and blocks white's four at g12 instead.
    expect(formatMove(think(seed002, 'f8 g8 i8 j8 k8 b12', 'e8 c12 d12 e12 f12 o15', true).move)).toBe('g12');
    expect(formatMove(think(seed002, 'f8 g8 i8 j8 k8 b12', 'e8 c12 d12 e12 f12 o15', false).move)).toBe('h8');
  });
});

describe('engine', () => {
  it('gives the WebAssembly slot of its board back after each move, a forced win or a search alike', () => {
    think(ENGINE, 'h8 i8 j8 k9 k10', 'g8 a1 o1 a15 o15');
    const free = linesCore()!.freeSlots();
    for (let move = 0; move < 3; move++) think(ENGINE, 'h8 i8 j8 k9 k10', 'g8 a1 o1 a15 o15');
    think(ENGINE, 'h8 h9', 'i9 g7');
    expect(linesCore()!.freeSlots()).toBe(free);
  });

  it('plays a VCF it finds and reports it as a forced win', () => {
    const report = think(ENGINE, 'h8 i8 j8 k9 k10', 'g8 a1 o1 a15 o15');
    expect(formatMove(report.move)).toBe('k8');
    expect(report.score).toBeGreaterThanOrEqual(WIN_THRESHOLD);
    expect(report.pv.map(formatMove).slice(0, 2)).toEqual(['k8', 'l8']);
  });

  it('stops the opponent VCF: the four-three point k8 must be taken', () => {
    // White to move: black threatens k8 (a four on rank 8 and an open three on file k).
    const report = think(ENGINE, 'h8 i8 j8 k9 k10 a1', 'g8 o1 a15 o15 c3');
    expect(points('k8 l8 k7 k11')).toContain(report.move);
  });

  it('defends by a counter-three where no block holds', () => {
    // From an arena game: white to move, and black (h8 h9 i9) wins by threats if white passes
    // (g9 first). Of white's 50 sensible moves only its own threes h4, i5, l8 and m9 (with j6 k7)
    // leave black no win by threats within 8; every block near black's stones loses.
    const bot = createGomokuEngineBot('engine-defence-test', 1000);
    const report = bot.think(positionOf('i9 h9 h8', 'j6 k7'), { deadline: performance.now() + 1000 });
    expect(points('h4 i5 l8 m9')).toContain(report.move);
  });

  it('respects exactFive: a six is not a win, so it blocks instead', () => {
    expect(formatMove(think(ENGINE, 'f8 g8 i8 j8 k8 b12', 'e8 c12 d12 e12 f12 o15', true).move)).toBe('g12');
    expect(formatMove(think(ENGINE, 'f8 g8 i8 j8 k8 b12', 'e8 c12 d12 e12 f12 o15', false).move)).toBe('h8');
  });
});
