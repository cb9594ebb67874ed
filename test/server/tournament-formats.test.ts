import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../../bots/agent/index.js';
import { seededRandom } from '../../shared/random.js';
import type { TournamentView } from '../../shared/protocol/index.js';
import { Opened } from '../support/server.js';
import { adminPost, checkRounds, checkTournament, colourRuns, follow, getJson, randomAgent, signUp, TournamentPerson, untilFinished } from '../support/tournaments.js';
import type { Boardroom } from '../../server/app.js';

// A double round robin of six and an arena of twenty, in the embedded mode: people (socket
// clients), roster bots and agents (the SDK) together, every game played to its end.
const opened = new Opened();
let server: Boardroom;
beforeAll(async () => {
  server = await opened.server({ TOURNAMENT_TICK_MS: '100', FIRST_MOVE_GRACE_MS: '3000', RECONNECT_GRACE_MS: '3000' });
});
afterAll(() => opened.closeAll());

const FAST = { kind: 'per-move', moveMs: 1000 } as const;

async function field(id: string, people: number, agents: number, seed: number): Promise<{ persons: TournamentPerson[]; agents: Agent[] }> {
  const random = seededRandom(seed);
  const persons: TournamentPerson[] = [];
  for (let i = 0; i < people; i++) {
    const cookie = await signUp(server.url, `p${seed}x${i}`);
    const person = new TournamentPerson([server.url], cookie, id, random);
    opened.add(() => person.stop());
    await person.join();
    persons.push(person);
  }
  const joined: Agent[] = [];
  for (let i = 0; i < agents; i++) {
    const agent = await randomAgent(server.url, `a${seed}x${i}`, random);
    opened.add(() => agent.close());
    await agent.joinTournament(id);
    joined.push(agent);
  }
  return { persons, agents: joined };
}

describe('tournament formats', () => {
  it('a double round robin of 6: the Berger rounds, each pair twice with colours reversed, standings equal to a recount', async () => {
    const { tournament } = await adminPost<{ tournament: TournamentView }>(server.url, '/tournaments', { name: 'Double RR', game: 'othello', format: 'round-robin', rounds: 2, timeControl: FAST, bots: ['random', 'engine-1', 'engine-2'] });
    await field(tournament.id, 2, 1, 6);
    const { deltas } = await follow(server.url, tournament.id);
    await adminPost(server.url, `/tournaments/${tournament.id}/start`, {});
    const done = await untilFinished(server.url, tournament.id, 170_000);
    expect(done.round).toBe(10);
    expect(done.pairings).toHaveLength(30);
    checkRounds(done, { noRematch: false });
    const meetings = new Map<string, string[]>();
    for (const p of done.pairings) {
      const key = [p.black, p.white].sort().join('|');
      meetings.set(key, [...(meetings.get(key) ?? []), p.black]);
    }
    expect(meetings.size).toBe(15);
    for (const [key, blacks] of meetings) expect(new Set(blacks).size, key).toBe(2); // once each colour
    for (const [id, colours] of colourRuns(done)) expect(colours.filter((c) => c === 'black').length, id).toBe(5);
    // Everyone was there: no game was lost by an absent side.
    expect(done.pairings.filter((p) => p.reason === 'absent')).toEqual([]);
    await checkTournament(server.url, done, deltas);
  });

  it('an arena of 20 (shortened to 24 s): paired again at once while the clock runs, never two games at once, streak scoring equal to a recount', async () => {
    const { tournament } = await adminPost<{ tournament: TournamentView }>(server.url, '/tournaments', { name: 'Arena', game: 'othello', format: 'arena', minutes: 0.4, timeControl: FAST, bots: ['random', 'engine-1', 'engine-2', 'engine-3'] });
    await field(tournament.id, 10, 6, 20);
    const { deltas } = await follow(server.url, tournament.id);
    await adminPost(server.url, `/tournaments/${tournament.id}/start`, {});
    const done = await untilFinished(server.url, tournament.id, 120_000);
    expect(done.standings).toHaveLength(20);
    checkRounds(done, { noRematch: false });
    // Games of one entrant never overlap: each starts after the one before it ended.
    const { games } = await getJson<{ games: { id: string; createdAt: number; updatedAt: number; players: { black: { name: string }; white: { name: string } } }[] }>(`${server.url}/api/tournaments/${done.id}/games`);
    const byName = new Map<string, { createdAt: number; updatedAt: number }[]>();
    for (const g of games) for (const side of [g.players.black.name, g.players.white.name]) byName.set(side, [...(byName.get(side) ?? []), g]);
    for (const [name, list] of byName) {
      list.sort((a, b) => a.createdAt - b.createdAt);
      for (let i = 1; i < list.length; i++) expect(list[i]!.createdAt, name).toBeGreaterThanOrEqual(list[i - 1]!.updatedAt);
    }
    // No game was made after the arena's end; most entrants played several.
    for (const g of games) expect(g.createdAt).toBeLessThanOrEqual(done.endsAt!);
    expect(games.length).toBeGreaterThan(20);
    // Some entrant scored a streak's double points, so the recount checks the doubling.
    expect(done.standings.some((row) => row.points > 2 * row.wins + row.draws)).toBe(true);
    await checkTournament(server.url, done, deltas);
  });

  it('an entrant absent at pairing time is paired and loses each game on time', async () => {
    const { tournament } = await adminPost<{ tournament: TournamentView }>(server.url, '/tournaments', { name: 'Absent', game: 'othello', format: 'swiss', rounds: 2, timeControl: FAST, bots: ['random', 'engine-1', 'engine-2'] });
    const absent = new TournamentPerson([server.url], await signUp(server.url, 'absent1'), tournament.id, () => 0);
    await absent.join();
    absent.stop(); // gone before the start: never takes a seat
    await adminPost(server.url, `/tournaments/${tournament.id}/start`, {});
    const done = await untilFinished(server.url, tournament.id, 60_000);
    const games = done.pairings.filter((p) => p.black === 'person:absent1' || p.white === 'person:absent1');
    expect(games).toHaveLength(2);
    for (const p of games) expect([p.reason, p.winner]).toEqual(['absent', p.black === 'person:absent1' ? 'white' : 'black']);
    expect(done.standings.find((r) => r.id === 'person:absent1')).toMatchObject({ points: 0, losses: 2 });
  });
});
