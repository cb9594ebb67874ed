import { afterEach, describe, expect, it } from 'vitest';
import type { Color } from '../../shared/color.js';
import type { TournamentDelta, TournamentView } from '../../shared/protocol/index.js';
import { seededRandom } from '../../shared/random.js';
import { freePort, startRedis } from '../support/redis.js';
import { kill9, spawnBuilt } from '../support/server.js';
import { adminPost, checkRounds, checkTournament, colourRuns, follow, randomAgent, signUp, TournamentPerson, untilFinished, untilRound } from '../support/tournaments.js';

// The suite's Swiss: 16 entrants (6 accounts on socket clients, 6 roster bots answered by a
// BullMQ worker, 4 agents on the SDK) over 5 rounds, Redis mode with two web processes and a
// worker. One person withdraws once round 2 is paired, so from round 3 the field is odd and
// someone has the bye. Run once untroubled, and once with the web process running the
// tournaments killed with SIGKILL as round 3 is paired (started again a second later).
const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

const BOTS = ['random', 'engine-1', 'engine-2', 'engine-3', 'seed-000', 'seed-003'];
/** A bank of 3 s a side: the slowest bot's budget is cut to what its clock has left. */
const CLOCK = { kind: 'bank', initialMs: 3000, incrementMs: 0 } as const;

async function swiss16(kill: boolean): Promise<{ done: TournamentView; deltas: TournamentDelta[]; withdrawn: string; ms: number; games: string[]; url: string }> {
  const redis = await startRedis();
  cleanups.push(() => redis.stop());
  const prefix = kill ? 'swiss-kill' : 'swiss';
  const env = { REDIS_URL: redis.url, REDIS_PREFIX: prefix, TOURNAMENT_TICK_MS: '100', FIRST_MOVE_GRACE_MS: '5000', RECONNECT_GRACE_MS: '5000', BOT_THREADS: '2' };
  const ports = [await freePort(), await freePort()];
  const webs = ports.map((port) => spawnBuilt('main', { ...env, PORT: String(port) }));
  for (const web of webs) cleanups.push(() => kill9(web.child));
  await Promise.all(webs.map((w) => w.ready));
  const worker = spawnBuilt('worker', env);
  cleanups.push(() => kill9(worker.child));
  await worker.ready;
  const urls = ports.map((p) => `http://127.0.0.1:${p}`);

  const { tournament } = await adminPost<{ tournament: TournamentView }>(urls[0]!, '/tournaments', { name: 'Suite Swiss', game: 'othello', format: 'swiss', rounds: 5, timeControl: CLOCK, bots: BOTS });
  const random = seededRandom(kill ? 2 : 1);
  const persons: TournamentPerson[] = [];
  for (let i = 0; i < 6; i++) {
    const cookie = await signUp(urls[i % 2]!, `${prefix}-p${i}`);
    const person = new TournamentPerson([urls[i % 2]!, urls[(i + 1) % 2]!], cookie, tournament.id, random);
    cleanups.push(() => person.stop());
    await person.join();
    persons.push(person);
  }
  for (let i = 0; i < 4; i++) {
    const agent = await randomAgent(urls[i % 2]!, `${prefix}-a${i}`, random);
    cleanups.push(() => agent.close());
    await agent.joinTournament(tournament.id);
  }
  const followers = await Promise.all(urls.map((url) => follow(url, tournament.id)));
  for (const f of followers) cleanups.push(() => f.client.close());
  const started = Date.now();
  await adminPost(urls[0]!, `/tournaments/${tournament.id}/start`, {});

  await untilRound(urls[1]!, tournament.id, 2, 60_000);
  await persons[5]!.withdraw();
  if (kill) {
    await untilRound(urls[1]!, tournament.id, 3, 60_000);
    // The process holding the tournaments' lock: the one pairing and making round 3's games.
    const holder = await redis.client().get(`${prefix}:lock:tournaments`);
    const at = webs.findIndex((w) => holder?.startsWith(`${w.child.pid}-`));
    expect(at).toBeGreaterThanOrEqual(0);
    await kill9(webs[at]!.child);
    await new Promise((r) => setTimeout(r, 1000));
    const again = spawnBuilt('main', { ...env, PORT: String(ports[at]) });
    cleanups.push(() => kill9(again.child));
    await again.ready;
  }
  const done = await untilFinished(urls[kill ? 1 : 0]!, tournament.id, 170_000);
  const ms = Date.now() - started;
  const keys: string[] = [];
  for (let cursor = '0'; ; ) {
    // A game's keys are tagged by its id: `game:{<id>}`, `game:{<id>}:moves`.
    const [next, found] = await redis.client().scan(cursor, 'MATCH', `${prefix}:game:{${tournament.id}-*`, 'COUNT', 1000);
    keys.push(...found.filter((k) => k.endsWith('}')));
    if ((cursor = next) === '0') break;
  }
  return { done, deltas: followers.flatMap((f) => f.deltas), withdrawn: `person:${prefix}-p5`, ms, games: keys.map((k) => k.slice(`${prefix}:game:{`.length, -1)), url: urls[1]! };
}

function checkSwiss({ done, deltas, withdrawn, games }: Awaited<ReturnType<typeof swiss16>>): void {
  expect(done.round).toBe(5);
  expect(done.standings).toHaveLength(16);
  checkRounds(done, { noRematch: true });
  // Exactly the games the pairings name were made: no round was paired twice.
  expect(games.sort()).toEqual(done.pairings.map((p) => p.gameId).filter((id): id is string => id !== null).sort());
  // Rounds 1-2: everyone plays. From round 3, 15 entrants: one bye a round, never twice to one entrant.
  const byes = done.pairings.filter((p) => p.reason === 'bye');
  expect(byes.map((p) => p.round)).toEqual([3, 4, 5]);
  expect(new Set(byes.map((p) => p.black)).size).toBe(3);
  for (const round of [3, 4, 5]) {
    const present = done.pairings.filter((p) => p.round === round).flatMap((p) => [p.black, p.white]).filter((id) => id !== null);
    expect(present).toHaveLength(15);
    expect(present).not.toContain(withdrawn);
  }
  // Colours: never three alike in a row, never more than two apart.
  for (const [id, colours] of colourRuns(done)) {
    const blacks = colours.filter((c: Color) => c === 'black').length;
    expect(Math.abs(2 * blacks - colours.length), id).toBeLessThanOrEqual(2);
    expect(colours.join(), id).not.toMatch(/(black,black,black|white,white,white)/);
  }
}

describe('a 16-entrant Swiss in Redis mode (two web processes and a worker)', () => {
  it('pairs every round once, no rematch, byes and colours by the rules, standings equal to a recount', async () => {
    const run = await swiss16(false);
    console.log(`16-entrant Swiss, 5 rounds: ${run.ms} ms`);
    checkSwiss(run);
    await checkTournament(run.url, run.done, run.deltas);
  });

  it('the same with the web process running the tournaments killed (SIGKILL) as round 3 is paired: the other finishes the round', async () => {
    const run = await swiss16(true);
    console.log(`16-entrant Swiss with a SIGKILL in round 3: ${run.ms} ms`);
    checkSwiss(run);
    await checkTournament(run.url, run.done, run.deltas);
  });
});
