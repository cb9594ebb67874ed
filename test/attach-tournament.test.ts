import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TournamentView } from '../shared/protocol/index.js';
import type { Boardroom } from '../server/app.js';
import { boardroom } from './support/cli.js';
import { newAgentToken, startServer } from './support/server.js';
import { adminPost, getJson, untilFinished } from './support/tournaments.js';

// `boardroom attach --play tournament`: Debian's Fairy-Stockfish, over UCI, enters a MiniChess
// Swiss against three roster bots and plays every round of it; the command ends with the tournament.
const ENGINE = process.env.FAIRY_STOCKFISH ?? ['/usr/games/fairy-stockfish', '/usr/bin/fairy-stockfish'].find((path) => existsSync(path)) ?? '';
const VARIANTS = fileURLToPath(new URL('../bots/bridges/variants.ini', import.meta.url));

let server: Boardroom;
beforeAll(async () => {
  server = await startServer({ TOURNAMENT_TICK_MS: '100' });
});
afterAll(() => server?.close());

describe('boardroom attach --play tournament', () => {
  it('plays a MiniChess Swiss to its end with Fairy-Stockfish over UCI', async () => {
    if (!ENGINE) throw new Error('No fairy-stockfish: apt-get install -y fairy-stockfish, or set FAIRY_STOCKFISH.');
    const token = await newAgentToken(server.url, 'fairy-swiss');
    const { tournament } = await adminPost<{ tournament: TournamentView }>(server.url, '/tournaments', {
      name: 'MiniChess Swiss',
      game: 'minichess',
      format: 'swiss',
      rounds: 3,
      // A bank: the engine spends a share of it on each move, and has time to start before its first.
      timeControl: { kind: 'bank', initialMs: 15_000, incrementMs: 100 },
      bots: ['random', 'engine-1', 'engine-2'],
    });
    const run = boardroom('attach', '--server', server.url, '--token', token, '--game', 'minichess', '--uci', ENGINE, '--uci-variant', 'boardroom-minichess', '--uci-variants-file', VARIANTS, '--play', 'tournament', '--tournament', tournament.id, '--json');
    // Started once the engine has entered.
    for (let i = 0; i < 200; i++) {
      const { tournament: now } = await getJson<{ tournament: TournamentView }>(`${server.url}/api/tournaments/${tournament.id}`);
      if (now.standings.length === 4) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await adminPost(server.url, `/tournaments/${tournament.id}/start`, {});
    const { code, stdout, stderr } = await run;
    expect(code, stderr).toBe(0);
    const done = await untilFinished(server.url, tournament.id, 10_000);
    const fairy = done.pairings.filter((p) => p.black === 'agent:fairy-swiss' || p.white === 'agent:fairy-swiss');
    expect(fairy).toHaveLength(3);
    const ended = stdout.trim().split('\n').map((line) => JSON.parse(line) as { event: string; gameId: string; result: { reason: string } }).filter((e) => e.event === 'ended');
    expect(ended.map((e) => e.gameId).sort()).toEqual(fairy.map((p) => p.gameId).sort());
    for (const e of ended) expect(['king-capture', 'step-limit', 'no-moves'], stdout).toContain(e.result.reason);
    expect(stdout).not.toContain('"problem"');
  }, 170_000);
});
