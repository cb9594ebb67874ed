import { afterEach, describe, expect, it } from 'vitest';
import { search, type SearchOptions } from '../engine/search.js';
import { TranspositionTable } from '../engine/table.js';
import { OTHELLO_PROBCUT } from './bots.js';
import { evaluateWithMobility } from './evaluate.js';
import { currentWeights, useWeights } from './learned-eval.js';
import { OthelloSearchBoard } from './search-board.js';
import { loaded } from './wasm-core.js';
import { positionsAlongRandomGames } from './test-positions.js';
import { MAX_TABLES, WasmMidgame } from './wasm-search.js';

/** Positions along seeded random games, every `every` plies, the exact solver turned off so the trees reach the games' ends. */
function positions(seed: number, games: number, every: number): OthelloSearchBoard[] {
  return positionsAlongRandomGames(seed, games, (ply, g) => ply % every === g % every).map(withoutSolver);
}

function withoutSolver(board: OthelloSearchBoard): OthelloSearchBoard {
  Object.defineProperty(board, 'solveExactly', { value: undefined });
  return board;
}

const copy = (board: OthelloSearchBoard) => withoutSolver(OthelloSearchBoard.from(board));
const outcome = ({ move, score, depth, nodes, pv }: ReturnType<typeof search>) => ({ move, score, depth, nodes, pv });

afterEach(() => useWeights(undefined));

describe('the WebAssembly midgame search', () => {
  it('searches the same tree as the TypeScript search: move, score, principal variation, node count, and where a node limit stops it', () => {
    const boards = positions(5, 12, 5);
    expect(boards.length).toBeGreaterThan(100);
    // One engine's table through all the searches, as a game's engine keeps it between moves.
    const table = new TranspositionTable(20);
    const midgame = new WasmMidgame();
    for (const [i, board] of boards.entries()) {
      const options: SearchOptions = { probCut: OTHELLO_PROBCUT, maxDepth: i % 3 === 0 ? 8 : 6, nodeLimit: i % 4 === 1 ? 2_000 : Infinity };
      const typescript = search(copy(board), { ...options, table });
      const native = search(copy(board), { ...options, native: midgame.over(board) });
      expect(outcome(native), `position ${i}`).toEqual(outcome(typescript));
    }
  });

  it('reads the weights in use, and is not used for another evaluation', () => {
    const shipped = currentWeights();
    useWeights(shipped.map((w, i) => (i % 3 === 0 ? -w : w)));
    const board = positions(3, 1, 9)[2]!;
    const typescript = search(copy(board), { probCut: OTHELLO_PROBCUT, maxDepth: 7 });
    const native = search(copy(board), { probCut: OTHELLO_PROBCUT, maxDepth: 7, native: new WasmMidgame().over(board) });
    expect(outcome(native)).toEqual(outcome(typescript));
    useWeights(undefined);
    const shippedNative = search(copy(board), { probCut: OTHELLO_PROBCUT, maxDepth: 7, native: new WasmMidgame().over(board) });
    expect(shippedNative.nodes).not.toBe(native.nodes);

    const handMade = copy(board);
    handMade.evaluation = evaluateWithMobility;
    expect(new WasmMidgame().over(handMade)).toBeUndefined();
  });

  it('holds at most MAX_TABLES tables however many engines search, a fresh engine always starting from an empty table', () => {
    const board = positions(3, 1, 9)[3]!;
    const options: SearchOptions = { probCut: OTHELLO_PROBCUT, maxDepth: 7 };
    const fresh = outcome(search(copy(board), { ...options, table: new TranspositionTable(20) }));
    for (let i = 0; i < MAX_TABLES; i++) search(copy(board), { ...options, native: new WasmMidgame().over(board) });
    const memory = loaded().memory.buffer.byteLength;
    // More engines alive at once than tables: each takes the least recently used one, cleared.
    const engines = Array.from({ length: MAX_TABLES + 4 }, () => new WasmMidgame());
    for (const engine of engines) expect(outcome(search(copy(board), { ...options, native: engine.over(board) }))).toEqual(fresh);
    expect(loaded().memory.buffer.byteLength).toBe(memory);
  });
});
