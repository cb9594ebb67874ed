import { describe, expect, it } from 'vitest';
import { OthelloBoard, PASS } from '../../shared/othello/board.js';
import { parseOthelloMove } from '../../shared/othello/notation.js';
import { othelloBoardOf, othelloPositionOf, othelloRules, type OthelloPosition } from '../../shared/othello/rules.js';
import { GAMES } from '../../shared/games.js';
import { readBook } from '../arena/openings.js';
import type { Bot } from '../bot.js';
import { search } from '../engine/search.js';
import { OTHELLO_PROBCUT, createOthelloEngineBot, seed000, seed000Evaluate, seed003 } from './bots.js';
import { OthelloSearchBoard } from './search-board.js';

function square(text: string): number {
  const parsed = parseOthelloMove(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

function position(obf: string): OthelloPosition {
  const parsed = othelloRules.parsePosition(obf);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

const soon = (ms = 2000) => ({ deadline: performance.now() + ms });

/** A game between two bots from the start, every position checked against the rules. */
function playGame(black: Bot, white: Bot, msPerMove: number): { plies: number; positions: OthelloPosition[]; final: OthelloPosition } {
  let p = othelloRules.start();
  const positions: OthelloPosition[] = [];
  let plies = 0;
  while (othelloRules.outcome(p) === null) {
    positions.push(p);
    const legal = othelloRules.legalMoves(p);
    const bot = p.toMove === 'black' ? black : white;
    const report = bot.think(p, soon(msPerMove));
    expect(legal).toContain(report.move);
    p = othelloRules.play(p, report.move);
    plies++;
  }
  return { plies, positions, final: p };
}

describe('seed-000', () => {
  it("scores the start from the report's terms", () => {
    // Start, black to move, black's view: discs 2-2, square values cancel (d4/e5 vs d5/e4 are
    // all 1), black's 4 moves (+2 each) each flip one disc (+2 each): 16.
    const board = OthelloBoard.start();
    expect(seed000Evaluate(board, true, new Int32Array(33), 0)).toBe(16);
    // White's view with black to move: the opponent's mobility and flips count against it.
    expect(seed000Evaluate(board, false, new Int32Array(33), 0)).toBe(-16);
  });

  it('plays legal moves through a whole game against seed-003', () => {
    const { plies } = playGame(seed000, seed003, 300);
    expect(plies).toBeGreaterThan(50);
  });

  it('is deterministic and answers a forced pass with a pass', () => {
    const p = othelloRules.play(othelloRules.start(), square('f5'));
    expect(seed000.think(p, soon()).move).toBe(seed000.think(p, soon()).move);
    const mustPass = position('XO' + '-'.repeat(62) + ' O');
    expect(seed000.think(mustPass, soon()).move).toBe(PASS);
  });
});

describe('seed-003', () => {
  it('takes an available corner at once', () => {
    // White to move can take a1 (over b1 to c1); seed 003 checks corners before searching.
    const cells = Array.from({ length: 64 }, () => '-');
    cells[square('b1')] = 'X';
    cells[square('c1')] = 'O';
    cells[square('d4')] = 'O';
    cells[square('e4')] = 'X';
    cells[square('d5')] = 'X';
    cells[square('e5')] = 'O';
    const p = position(`${cells.join('')} O`);
    expect(othelloRules.legalMoves(p)).toContain(square('a1'));
    const report = seed003.think(p, soon());
    expect(report.move).toBe(square('a1'));
    expect(report.nodes).toBe(0);
  });

  it('takes the first corner in row order when there are several', () => {
    // a1 over b1 and h1 over g1, both for white: the seed's loop meets (0,0) first.
    const cells = Array.from({ length: 64 }, () => '-');
    for (const s of ['b1', 'g1']) cells[square(s)] = 'X';
    for (const s of ['c1', 'f1']) cells[square(s)] = 'O';
    const p = position(`${cells.join('')} O`);
    expect(seed003.think(p, soon()).move).toBe(square('a1'));
  });

  it('stops at its deadline with the move of the last finished depth', () => {
    const p = othelloRules.play(othelloRules.play(othelloRules.start(), square('f5')), square('d6'));
    const started = performance.now();
    const report = seed003.think(p, soon(100));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(othelloRules.legalMoves(p)).toContain(report.move);
    expect(report.depth).toBeGreaterThan(0);
    expect(report.depth).toBeLessThanOrEqual(7);
  });
});

describe('engine bot', () => {
  it('reports the search it ran', () => {
    const engine = createOthelloEngineBot('engine-test', 100);
    const p = othelloPositionOf(OthelloBoard.start());
    const progress: number[] = [];
    const report = engine.think(p, { deadline: performance.now() + 100, onProgress: (r) => progress.push(r.depth) });
    expect(othelloRules.legalMoves(p)).toContain(report.move);
    expect(report.depth).toBeGreaterThan(2);
    expect(report.nodes).toBeGreaterThan(0);
    expect(progress.length).toBeGreaterThan(0);
    expect(report.pv[0]).toBe(report.move);
  });

  it("prunes by ProbCut: to the same depth, far fewer nodes, and mostly the full search's move", () => {
    // Midgame positions from the opening book's first lines, played on by the engine itself.
    const book = readBook(GAMES.othello).slice(0, 8);
    const engine = createOthelloEngineBot('engine-test', 10);
    let plainNodes = 0;
    let cutNodes = 0;
    let same = 0;
    for (const opening of book) {
      let p = othelloRules.start();
      for (const move of opening) p = othelloRules.play(p, move);
      for (let i = 0; i < 12; i++) p = othelloRules.play(p, engine.think(p, { deadline: Infinity, maxDepth: 3 }).move);
      const plain = search(OthelloSearchBoard.from(othelloBoardOf(p)), { maxDepth: 7 });
      const cut = search(OthelloSearchBoard.from(othelloBoardOf(p)), { maxDepth: 7, probCut: OTHELLO_PROBCUT });
      plainNodes += plain.nodes;
      cutNodes += cut.nodes;
      if (cut.move === plain.move) same++;
    }
    expect(cutNodes).toBeLessThan(plainNodes * 0.7);
    expect(same).toBeGreaterThanOrEqual(5);
  });
});
