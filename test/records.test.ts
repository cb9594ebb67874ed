import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../bots/cli/main.js';
import type { Output } from '../bots/tool-io.js';

interface FixtureRecord {
  source: string;
  record: string;
  expected: {
    outcome: { winner: 'black' | 'white' | null; reason: string };
    discs?: { black: number; white: number };
    material?: { white: number; black: number };
  };
}

function fixtures(game: string): FixtureRecord[] {
  return JSON.parse(readFileSync(new URL(`./fixtures/records/${game}.json`, import.meta.url), 'utf8')) as FixtureRecord[];
}

async function play(args: string[]): Promise<{ code: number; last: Record<string, unknown>; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const output: Output = { out: (l) => out.push(l), err: (l) => err.push(l), interactive: false };
  const code = await main(['play', ...args, '--json'], output);
  return { code, last: JSON.parse(out.at(-1) ?? '{}') as Record<string, unknown>, err: err.join('\n') };
}

// Games played by other programs and people (sources in each fixture entry): replayed through
// `boardroom play`, each must end on its last move with the result its source states.
describe.each(['othello', 'gomoku', 'minichess'])('%s records made elsewhere', (game) => {
  it.each(fixtures(game).map((r) => [r.source.slice(0, 60), r] as const))('%s', async (_name, fixture) => {
    const moves = fixture.record.split(' ');
    const { code, last } = await play([game, fixture.record]);
    expect(code).toBe(0);
    expect(last.outcome).toEqual(fixture.expected.outcome);
    expect(last.legal).toEqual([]);
    if (fixture.expected.discs) {
      const board = String(last.position).split(' ')[0]!;
      expect(board.replace(/[^X]/g, '').length).toBe(fixture.expected.discs.black);
      expect(board.replace(/[^O]/g, '').length).toBe(fixture.expected.discs.white);
    }
    // One move short, the game is still on: it ended exactly on the last move.
    const before = await play([game, ...moves.slice(0, -1)]);
    expect(before.last.outcome).toBeNull();
  });
});

describe('boardroom play refuses', () => {
  it.each([
    ['othello', ['f5', 'd6', 'a1'], 2, 'a1', 'move/no_flip'],
    ['othello', ['f5', 'zz'], 1, 'zz', 'move/syntax'],
    ['gomoku', ['h8', 'h8'], 1, 'h8', 'move/occupied'],
    ['minichess', ['b2b3', 'b3b4'], 1, 'b3b4', 'move/not_your_piece'],
    ['minichess', ['b2b3', 'b2b4'], 1, 'b2b4', 'move/no_piece'],
  ] as const)('%s %j at index %i', async (game, moves, index, move, code) => {
    const result = await play([game, ...moves]);
    expect(result.code).toBe(2);
    expect(result.last).toMatchObject({ error: { index, move, code } });
    expect(result.err).toContain(`Move ${index} "${move}"`);
  });
});
