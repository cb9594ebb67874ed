import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { playTurns, problemOf, turnAfter } from '../../test/fixtures/engines/engine-turns.js';
import { courseState, readCourseAnswer } from './file-protocol-format.js';
import { FileProtocolBridge } from './file-protocol.js';

const PROGRAM = fileURLToPath(new URL('../../test/fixtures/engines/file-engine.mjs', import.meta.url));
const NEVER = new AbortController().signal;
const GAME_IDS = ['othello', 'gomoku', 'minichess'] as const;

function program(mode = '', command = `MODE='${mode}' ${process.execPath} ${PROGRAM}`): FileProtocolBridge {
  return new FileProtocolBridge({ command, log: () => undefined });
}

describe('the state file', () => {
  it('Othello: the side (1 black), rows from the top (rank 1), then the legal moves as zero-based "row col" in row-major order', () => {
    const lines = courseState(turnAfter('othello', [])).split('\n');
    expect(lines[0]).toBe('1');
    expect(lines.slice(1, 9)).toEqual([
      ...Array(3).fill('0 0 0 0 0 0 0 0'),
      '0 0 0 2 1 0 0 0', // d4 white, e4 black
      '0 0 0 1 2 0 0 0',
      ...Array(3).fill('0 0 0 0 0 0 0 0'),
    ]);
    expect(lines.slice(9)).toEqual(['4', '2 3', '3 2', '4 5', '5 4', '']); // d3 c4 f5 e6
    expect(courseState(turnAfter('othello', ['d3'])).split('\n')[0]).toBe('2');
  });

  it('Gomoku: the side (2 white), 15 rows from the top (rank 15)', () => {
    const lines = courseState(turnAfter('gomoku', ['h8', 'a1', 'o15'])).split('\n');
    expect(lines).toHaveLength(17);
    expect(lines[0]).toBe('2');
    const cell = (row: number, col: number) => lines[1 + row]!.split(' ')[col];
    expect([cell(7, 7), cell(14, 0), cell(0, 14)]).toEqual(['1', '2', '1']);
    expect(lines.slice(1, 16).join(' ').split(' ').filter((c) => c !== '0')).toHaveLength(3);
  });

  it('MiniChess: the side (0 white), white’s then black’s pieces, row 0 rank 6', () => {
    const lines = courseState(turnAfter('minichess', ['a2a3'])).split('\n');
    expect(lines[0]).toBe('1');
    expect(lines.slice(1, 8)).toEqual(['0 0 0 0 0 ', '0 0 0 0 0 ', '0 0 0 0 0 ', '1 0 0 0 0 ', '0 1 1 1 1 ', '2 3 4 5 6 ', '']);
    expect(lines.slice(8, 15)).toEqual(['6 5 4 3 2 ', '1 1 1 1 1 ', '0 0 0 0 0 ', '0 0 0 0 0 ', '0 0 0 0 0 ', '0 0 0 0 0 ', '']);
  });
});

describe('the action file', () => {
  it.each([
    ['othello', '2 3', 'd3'],
    ['othello', '0 0', 'a1'],
    ['othello', '0 7', 'h1'],
    ['othello', '7 0', 'a8'],
    ['gomoku', '7 7', 'h8'],
    ['gomoku', '0 0', 'a15'],
    ['gomoku', '14 0', 'a1'],
    ['gomoku', '0 14', 'o15'],
    ['gomoku', '13 1', 'b2'],
    ['minichess', '4 0 3 0', 'a2a3'],
    ['minichess', '1 4 0 3', 'e5d6'],
    ['minichess', '5 1 3 2', 'b1c3'],
  ] as const)('%s "%s" is %s', (game, text, move) => {
    expect(readCourseAnswer(game, text)).toEqual({ ok: true, value: move });
  });

  it.each([
    ['othello', '0 0\n2 3\n4', 'd3'],
    ['gomoku', '7 7\n13 1\n1', 'b2'],
    ['minichess', '5 0 5 1\n4 0 3 0\n1 4 0', 'a2a3'],
    ['othello', '2 3\nthen 4 5', 'd3'],
  ] as const)('the last complete answer counts: %s %j is %s', (game, text, move) => {
    expect(readCourseAnswer(game, text)).toEqual({ ok: true, value: move });
  });

  it.each([
    ['othello', '', 'silent'],
    ['gomoku', ' \n', 'silent'],
    ['othello', 'd3', 'garbage'],
    ['gomoku', '7', 'garbage'],
    ['minichess', '4 0 3', 'garbage'],
    ['othello', '8 0', 'illegal'],
    ['gomoku', '-1 3', 'illegal'],
    ['minichess', '6 0 5 0', 'illegal'],
  ] as const)('%s %j has no move: %s', (game, text, code) => {
    const answer = readCourseAnswer(game, text);
    expect(answer.ok ? undefined : answer.error.code).toBe(code);
  });
});

describe('the file protocol bridge runs the program each turn', () => {
  it.each(GAME_IDS)('%s: several turns, each answer legal', async (game) => {
    const moves = await playTurns(program(), game, 4);
    expect(moves.length).toBeGreaterThanOrEqual(7);
    // The program's first choice: the first listed Othello move, the point nearest the centre, the first pawn push from the top.
    expect(moves[0]).toBe({ othello: 'd3', gomoku: 'h8', minichess: 'a2a3' }[game]);
  });

  it.each(GAME_IDS)('%s: of answers written over time, the last complete one counts', async (game) => {
    expect(await program('anytime').think(turnAfter(game, []), NEVER)).toBe({ othello: 'd3', gomoku: 'h8', minichess: 'a2a3' }[game]);
  });

  it('a program still running at the deadline is killed there, and its last answer counts', async () => {
    const turn = turnAfter('othello', [], { moveMs: 800 });
    expect(await program('anytime stay').think(turn, NEVER)).toBe('d3');
    expect(Date.now()).toBeGreaterThanOrEqual(turn.deadline! - 300);
    expect(Date.now()).toBeLessThan(turn.deadline!);
  });

  it('silent: killed before the deadline, EngineProblem silent', async () => {
    const turn = turnAfter('gomoku', [], { moveMs: 800 });
    expect((await problemOf(program('silent').think(turn, NEVER))).kind).toBe('silent');
    expect(Date.now()).toBeLessThan(turn.deadline!);
  });

  it('an aborted turn kills the program at once', async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 200);
    const started = Date.now();
    expect((await problemOf(program('silent').think(turnAfter('minichess', [], { moveMs: null }), abort.signal))).kind).toBe('silent');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it.each([
    ['garbage', 'othello', 'garbage'],
    ['illegal', 'othello', 'illegal'],
    ['illegal', 'minichess', 'illegal'],
    ['illegal', 'gomoku', 'illegal'],
    ['crash', 'gomoku', 'crashed'],
  ] as const)('%s in %s: EngineProblem %s', async (mode, game, kind) => {
    expect((await problemOf(program(mode).think(turnAfter(game, []), NEVER))).kind).toBe(kind);
  });

  it('an Othello side that must pass passes without running the program', async () => {
    // a1 white, b1 black: black cannot bracket anything, white can (c1).
    const turn = turnAfter('othello', [], { start: `OX${'-'.repeat(62)} X` });
    expect(turn.legal).toEqual(['pass']);
    expect(await program('', 'exit 7').think(turn, NEVER)).toBe('pass');
  });
});
