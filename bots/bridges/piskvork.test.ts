import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { GAMES } from '../../shared/games.js';
import { playTurns, problemOf, turnAfter } from '../../test/fixtures/engines/engine-turns.js';
import { PiskvorkBridge, stonesInOrder, timeInfo } from './piskvork.js';

const ENGINE = fileURLToPath(new URL('../../test/fixtures/engines/piskvork-engine.mjs', import.meta.url));
const NEVER = new AbortController().signal;

let bridges: PiskvorkBridge[] = [];
afterEach(async () => {
  await Promise.all(bridges.map((bridge) => bridge.close()));
  bridges = [];
});

/** A bridge to a test engine (ours in `mode` by default), with what the engine was told (its "< LINE" echoes) and all notes. */
function engine(mode = '', command = `MODE=${mode} ${process.execPath} ${ENGINE}`) {
  const logged: string[] = [];
  const bridge = new PiskvorkBridge({ command, log: (line) => logged.push(line) });
  bridges.push(bridge);
  const told = (): string[] => logged.filter((line) => line.startsWith('engine: < ')).map((line) => line.slice('engine: < '.length));
  const commands = (): string[] => told().filter((line) => !line.startsWith('INFO'));
  // The engine echoes on stderr and answers on stdout: its answer can arrive before the echoes.
  const commandsEndingWith = async (last: string): Promise<string[]> => {
    for (let waited = 0; commands().at(-1) !== last && waited < 2000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    return commands();
  };
  return { bridge, told, commands, commandsEndingWith, logged };
}

/** Linux: a zombie waiting for its reaper is not running. */
function running(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

describe('the piskvork bridge tells the engine the game', () => {
  it('BEGIN, then TURN with each opponent move, coordinates exact both ways (X the column, Y the row from the top)', async () => {
    const { bridge, told, commandsEndingWith, logged } = engine();
    // The engine takes the empty point nearest 7,7 (h8), column by column; the opponent takes the corners.
    const opponent = ['a1', 'o15', 'a15', 'o1'];
    const moves: string[] = [];
    const answers: string[] = [];
    for (let i = 0; i <= opponent.length; i++) {
      const turn = turnAfter('gomoku', moves);
      const move = await bridge.think(turn, NEVER);
      expect(turn.legal).toContain(move);
      answers.push(move);
      moves.push(move);
      if (i < opponent.length) moves.push(opponent[i]!);
    }
    expect(answers).toEqual(['h8', 'g8', 'h9', 'h7', 'i8']);
    expect(await commandsEndingWith('TURN 14,14')).toEqual(['START 15', 'BEGIN', 'TURN 0,14', 'TURN 14,0', 'TURN 0,0', 'TURN 14,14']);
    expect(told().filter((line) => line.startsWith('INFO rule'))).toEqual(['INFO rule 0']);
    expect(logged).toContain('engine: MESSAGE thinking about the centre');
  });

  it('BOARD for a game it has not seen, 1 marking the engine’s own stones, in the order played', async () => {
    const { bridge, commandsEndingWith } = engine();
    const turn = turnAfter('gomoku', ['h8', 'a1', 'g8']); // white to move
    expect(await bridge.think(turn, NEVER)).toBe('h9');
    expect(await commandsEndingWith('DONE')).toEqual(['START 15', 'BOARD', '7,7,2', '0,14,1', '6,7,2', 'DONE']);
  });

  it('a start position with stones: BOARD with those first, even with no moves yet; exactFive is rule 1', async () => {
    const rules = GAMES.gomoku.rules;
    const parsed = rules.parsePosition('h8 i9 a1');
    if (!parsed.ok) throw new Error(parsed.error.message);
    const setup = { start: rules.formatPosition(parsed.value), options: { exactFive: true } };
    expect(stonesInOrder(turnAfter('gomoku', ['b2'], setup))).toEqual([
      { point: 8 * 15 + 8, color: 'white' }, // i9: rank 9 comes before rank 8 on the board text
      { point: 7 * 15 + 7, color: 'black' },
      { point: 0, color: 'black' },
      { point: 15 + 1, color: 'white' },
    ]);
    const { bridge, told, commandsEndingWith } = engine();
    expect(await bridge.think(turnAfter('gomoku', [], setup), NEVER)).toBe('g8');
    expect(await commandsEndingWith('DONE')).toEqual(['START 15', 'BOARD', '8,6,1', '7,7,2', '0,14,2', 'DONE']); // white to move: i9 is the engine's
    expect(told()).toContain('INFO rule 1');
  });

  it('the clock as INFO lines, less the transport margin', () => {
    const now = 1_000_000;
    const clock = turnAfter('gomoku', []).clock;
    expect(timeInfo({ clock: { ...clock, control: { kind: 'per-move', moveMs: 10_000 } }, deadline: now + 10_000 }, now)).toEqual([
      'INFO timeout_turn 9000',
      'INFO timeout_match 1000000000',
      'INFO time_left 1000000000',
    ]);
    expect(timeInfo({ clock: { ...clock, control: { kind: 'bank', initialMs: 300_000, incrementMs: 0 } }, deadline: now + 60_000 }, now)).toEqual([
      'INFO timeout_turn 54000',
      'INFO timeout_match 300000',
      'INFO time_left 54000',
    ]);
    expect(timeInfo({ clock: { ...clock, control: { kind: 'per-move', moveMs: 1000 } }, deadline: now + 1000 }, now)[0]).toBe('INFO timeout_turn 700');
    expect(timeInfo({ clock: { ...clock, control: { kind: 'none' } }, deadline: null }, now)).toEqual(['INFO timeout_turn 30000', 'INFO timeout_match 0']);
  });

  it('plays several turns of a game with no clock', async () => {
    const { bridge, told } = engine();
    const moves = await playTurns(bridge, 'gomoku', 4, { moveMs: null });
    expect(moves).toEqual(['h8', 'a1', 'g8', 'b1', 'h9', 'c1', 'h7', 'd1']);
    expect(told()).toContain('INFO timeout_turn 30000');
  });
});

describe('an engine that misbehaves', () => {
  it('crashes: it is started again within the turn, told the board, and plays on', async () => {
    const { bridge, commands, commandsEndingWith, logged } = engine('crash-at=2');
    const moves = await playTurns(bridge, 'gomoku', 4);
    expect(moves.filter((_, i) => i % 2 === 0)).toEqual(['h8', 'g8', 'h9', 'h7']); // as if it had never crashed
    expect(logged.some((line) => line.includes('engine crashed at move 4'))).toBe(true);
    await commandsEndingWith('TURN 2,14');
    expect(commands().filter((line) => line === 'START 15')).toHaveLength(2);
    // The opponent plays the first legal point: a1, b1, c1…; the new process is told the four stones.
    expect(commands().slice(commands().lastIndexOf('START 15'))).toEqual(['START 15', 'BOARD', '7,7,1', '0,14,2', '6,7,1', '1,14,2', 'DONE', 'TURN 2,14']);
  });

  it('crashes again when started again: EngineProblem crashed, and the next turn works via BOARD', async () => {
    const { bridge, commandsEndingWith } = engine('crash-on-stones=2');
    expect(await bridge.think(turnAfter('gomoku', []), NEVER)).toBe('h8');
    expect((await problemOf(bridge.think(turnAfter('gomoku', ['h8', 'a1']), NEVER))).kind).toBe('crashed');
    expect(await bridge.think(turnAfter('gomoku', ['h8', 'a1', 'g8', 'o15']), NEVER)).toBe('h9');
    expect((await commandsEndingWith('DONE')).slice(-6)).toEqual(['BOARD', '7,7,1', '0,14,2', '6,7,1', '14,0,2', 'DONE']);
  });

  it('answers late: silent, before the deadline', async () => {
    const { bridge } = engine('late');
    const turn = turnAfter('gomoku', [], { moveMs: 800 });
    expect((await problemOf(bridge.think(turn, NEVER))).kind).toBe('silent');
    expect(Date.now()).toBeLessThan(turn.deadline!);
    expect(Date.now()).toBeGreaterThanOrEqual(turn.deadline! - 300);
  });

  it('is still thinking when the turn is aborted: silent at once', async () => {
    const { bridge } = engine('late');
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 300);
    const started = Date.now();
    expect((await problemOf(bridge.think(turnAfter('gomoku', [], { moveMs: null }), abort.signal))).kind).toBe('silent');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it.each([
    ['illegal', 'illegal'],
    ['garbage', 'garbage'],
  ])('answers %s: EngineProblem %s', async (mode, kind) => {
    const { bridge } = engine(mode);
    expect((await problemOf(bridge.think(turnAfter('gomoku', ['h8']), NEVER))).kind).toBe(kind);
  });

  it.each([
    ['refuses START', `${process.execPath} -e "console.log('ERROR no 15x15 here'); setTimeout(() => {}, 5000)"`, 'ERROR no 15x15 here'],
    ['exits at START', 'exit 3', 'exited'],
  ])('%s: EngineProblem start', async (_, command, why) => {
    const { bridge } = engine('', command);
    const problem = await problemOf(bridge.think(turnAfter('gomoku', []), NEVER));
    expect(problem.kind).toBe('start');
    expect(problem.message).toContain(why);
  });
});

describe('close', () => {
  it('sends END, and the engine exits', async () => {
    const { bridge, told } = engine();
    await bridge.think(turnAfter('gomoku', []), NEVER);
    await bridge.close();
    expect(told().at(-1)).toBe('END');
  });

  it('kills an engine that stays after END, with what its shell started', async () => {
    const script = `process.stderr.write('pid ' + process.pid + '\\n'); require('readline').createInterface({ input: process.stdin }).on('line', (l) => { if (l.startsWith('START')) console.log('OK'); if (l === 'BEGIN') console.log('7,7'); }); setInterval(() => {}, 1000)`;
    // A command line the shell does not simply exec, of a program that outlives its input: killing the shell alone would leave node running.
    const { bridge, logged } = engine('', `cd . && ${process.execPath} -e "${script}"`);
    await bridge.think(turnAfter('gomoku', []), NEVER);
    const pid = Number(logged.find((line) => line.startsWith('engine: pid '))?.slice('engine: pid '.length));
    expect(pid).toBeGreaterThan(0);
    const started = Date.now();
    await bridge.close();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    await expect.poll(() => running(pid)).toBe(false);
  });
});
