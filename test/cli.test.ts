import { describe, expect, it } from 'vitest';
import { boardroom, lastJson } from './support/cli.js';

// The installed command (`npx boardroom`, package.json bin) runs the built code in dist/.
describe('the boardroom command', () => {
  it.each([
    // docs/rules.md §Perft tables; Othello counts in WebAssembly unless told otherwise.
    ['othello', 8, 390216, 'wasm'],
    ['minichess', 5, 46406, 'ts'],
  ])('perft %s %i --json ends with %i leaves, counted by %s', async (game, depth, leaves, engine) => {
    const { code, stdout } = await boardroom('perft', game, String(depth), '--json');
    expect(code).toBe(0);
    expect(lastJson(stdout)).toMatchObject({ game, depth, leaves, engine });
  });

  it('perft --divide lists the first moves and sums to the total', async () => {
    const { stdout } = await boardroom('perft', 'othello', '5', '--divide', '--json');
    const lines = stdout.trim().split('\n');
    const parts = lines.slice(0, -1).map((l) => Number(l.split(': ')[1]));
    expect(lines.slice(0, -1).map((l) => l.split(':')[0]).sort()).toEqual(['c4', 'd3', 'e6', 'f5']);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(1396);
  });

  it('perft counts othello with either engine, in one thread and on two', async () => {
    for (const engine of ['ts', 'wasm']) {
      for (const threads of ['1', '2']) {
        const { code, stdout } = await boardroom('perft', 'othello', '9', '--engine', engine, '--threads', threads, '--json');
        expect(code).toBe(0);
        expect(lastJson(stdout)).toMatchObject({ depth: 9, leaves: 3005288, threads: Number(threads), engine });
      }
    }
    const divided = await boardroom('perft', 'othello', '5', '--engine', 'wasm', '--divide');
    expect(divided.stdout).toContain('f5: 349');
    expect(divided.stdout).toContain('perft(5) = 1396 leaves');
  });

  it('play reports the position, the side to move, the legal moves and the outcome', async () => {
    // f5 flips e5; d6 flips d5 (bracketed by d4).
    const { code, stdout } = await boardroom('play', 'othello', 'f5', 'd6', '--json');
    expect(code).toBe(0);
    const report = lastJson(stdout) as { position: string; toMove: string; legal: string[]; outcome: unknown };
    expect(report.position).toBe('---------------------------OX------OXX-----O-------------------- X');
    expect(report.toMove).toBe('black');
    expect(report.outcome).toBeNull();
    const next = await boardroom('play', 'othello', 'f5', 'd6', report.legal[0]!, '--json');
    expect(next.code).toBe(0);
  });

  it('takes a position that starts with a dash as the value of --position', async () => {
    const position = '---------------------------OX------OXX-----O-------------------- X';
    const spaced = await boardroom('play', 'othello', '--position', position, '--json');
    expect(spaced.code).toBe(0);
    expect(lastJson(spaced.stdout)).toMatchObject({ position, toMove: 'black' });
    const best = await boardroom('bestmove', 'othello', '--position', position, '--depth', '2', '--json');
    expect(best.code).toBe(0);
    expect((lastJson(spaced.stdout) as { legal: string[] }).legal).toContain((lastJson(best.stdout) as { move: string }).move);
  });

  it('bestmove --moves plays a record from the start, and names the first move it cannot play', async () => {
    const played = await boardroom('play', 'othello', 'f5', 'd6', 'c3', '--json');
    const legal = (lastJson(played.stdout) as { legal: string[] }).legal;
    const best = await boardroom('bestmove', 'othello', '--moves', 'f5 d6 c3', '--depth', '3', '--json');
    expect(best.code).toBe(0);
    expect(legal).toContain((lastJson(best.stdout) as { move: string }).move);
    // The same search from the position itself gives the same answer.
    const position = await boardroom('bestmove', 'othello', '--position', (lastJson(played.stdout) as { position: string }).position, '--depth', '3', '--json');
    expect(lastJson(position.stdout)).toMatchObject({ move: (lastJson(best.stdout) as { move: string }).move });
    const bad = await boardroom('bestmove', 'othello', '--moves', 'f5 d6 a1 c3', '--depth', '3');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Move 3 of --moves, "a1", cannot be played: move/no_flip');
    const help = await boardroom('bestmove', '--help');
    expect(help.stdout).toContain('--moves');
  });

  it('bestmove --ms counts from the start of the process, so the search gets what start-up leaves', async () => {
    // From the start no search ends early; before, the search alone took the whole budget.
    const { code, stdout } = await boardroom('bestmove', 'minichess', '--ms', '300', '--json');
    expect(code).toBe(0);
    const answer = lastJson(stdout) as { move: string; ms: number };
    expect(answer.move).toMatch(/^[a-e][1-6][a-e][1-6]$/);
    expect(answer.ms).toBeLessThan(280);
  });

  it.each(['perft', 'play', 'bestmove', 'solve', 'arena', 'sprt', 'judge-book'])('%s --help explains itself and exits 0', async (command) => {
    const { code, stdout } = await boardroom(command, '--help');
    expect(code).toBe(0);
    expect(stdout).toContain(`Usage: boardroom ${command}`);
    expect(stdout).toContain('--json');
  });

  it.each([
    [['perft', 'chess', '3'], '"chess" is not a game'],
    [['perft', 'othello', '-1'], 'Unknown option'],
    [['perft', 'othello', 'x'], 'whole number'],
    [['perft', 'othello', '2', '--position', 'nonsense'], 'position/syntax'],
    [['perft', 'othello', '2', '--engine', 'c'], '--engine is ts or wasm, not "c"'],
    [['perft', 'gomoku', '2', '--engine', 'wasm'], '--engine wasm counts othello only'],
    [['frobnicate'], 'not a boardroom command'],
  ])('%j exits 2 saying %s', async (args, message) => {
    const { code, stderr } = await boardroom(...args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });
});
