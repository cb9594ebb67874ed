import { expect } from 'vitest';
import { connectAgent, type Agent } from '../../bots/agent/index.js';
import type { Color } from '../../shared/color.js';
import { moverAt } from '../../shared/games.js';
import { applyMoved, type GameView, type MovedEvent, type PairingView, type SeatGrant, type TournamentDelta, type TournamentView } from '../../shared/protocol/index.js';
import type { GameId } from '../../shared/rules.js';
import { ADMIN_TOKEN, Client, newAgentToken } from './server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function adminPost<T = Record<string, unknown>>(url: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${url}/admin/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` }, body: JSON.stringify(body) });
  const json = (await res.json()) as { ok: boolean; error?: { code: string } } & T;
  if (!json.ok) throw new Error(`POST ${path} refused: ${json.error?.code}`);
  return json;
}

export async function getJson<T>(url: string): Promise<T> {
  return (await (await fetch(url)).json()) as T;
}

export async function signUp(url: string, name: string): Promise<string> {
  const res = await fetch(`${url}/api/account/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, password: 'a good password' }) });
  if (res.status !== 200 && res.status !== 201) throw new Error(`sign-up of ${name} failed: ${res.status} ${await res.text()}`);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

/**
 * A signed-in person who enters a tournament and plays random legal moves in each game it is
 * given, asking for its seat (`tournament:seat`) until the tournament ends. `urls`: the web
 * processes it may connect to (the next one when its process dies).
 */
export class TournamentPerson {
  private client: Client | undefined;
  private stopped = false;
  readonly done: Promise<void>;
  readonly played = new Set<string>();

  constructor(
    private readonly urls: readonly string[],
    private readonly cookie: string,
    private readonly tournamentId: string,
    private readonly random: () => number,
  ) {
    this.done = this.run();
  }

  private async connect(): Promise<Client> {
    for (let i = 0; ; i++) {
      if (this.client?.socket.connected) return this.client;
      this.client?.close();
      const url = this.urls[i % this.urls.length]!;
      this.client = await new Client(url, '/', undefined, this.cookie).connected().catch(() => undefined);
      if (this.client) {
        await this.client.ask('tournament:follow', { tournamentId: this.tournamentId }).catch(() => undefined);
        return this.client;
      }
      await sleep(200);
    }
  }

  async join(): Promise<void> {
    const client = await this.connect();
    const joined = await client.ask('tournament:join', { tournamentId: this.tournamentId });
    if (!joined.ok) throw new Error(`join refused: ${joined.error.code}`);
  }

  async withdraw(): Promise<void> {
    const client = await this.connect();
    const left = await client.ask('tournament:withdraw', { tournamentId: this.tournamentId });
    if (!left.ok) throw new Error(`withdraw refused: ${left.error.code}`);
  }

  stop(): void {
    this.stopped = true;
    this.client?.close();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const client = await this.connect().catch(() => undefined);
      if (!client) continue;
      const seat = await client.ask<{ seat: SeatGrant; view: GameView }>('tournament:seat', { tournamentId: this.tournamentId }).catch(() => undefined);
      if (seat?.ok && seat.view.status !== 'finished') await this.play(client, seat.seat).catch(() => undefined);
      else await sleep(150);
    }
  }

  private async play(client: Client, seat: SeatGrant): Promise<void> {
    this.played.add(seat.gameId);
    const resumed = await client.ask<{ view: GameView }>('room:resume', { gameId: seat.gameId, token: seat.token });
    if (!resumed.ok) return;
    let view = resumed.view;
    const onMoved = (e: MovedEvent) => {
      if (e.gameId === view.id) view = applyMoved(view, e) ?? view;
    };
    const onEnded = (e: { view: GameView }) => {
      if (e.view.id === view.id) view = e.view;
    };
    client.socket.on('moved', onMoved);
    client.socket.on('ended', onEnded);
    try {
      while (view.status !== 'finished' && client.socket.connected && !this.stopped) {
        if (view.status === 'live' && view.toMove === seat.color && view.legal.length > 0) {
          const move = view.legal[Math.floor(this.random() * view.legal.length)]!;
          const ack = await client.ask<{ moved: MovedEvent }>('move', { gameId: view.id, token: seat.token, ply: view.ply, move });
          if (ack.ok) view = applyMoved(view, ack.moved) ?? view;
          else view = (await client.ask<{ view: GameView }>('room:sync', { gameId: view.id }).then((a) => (a.ok ? a.view : view)));
        } else {
          await sleep(40);
          if (this.random() < 0.1) view = await client.ask<{ view: GameView }>('room:sync', { gameId: view.id }).then((a) => (a.ok ? a.view : view));
        }
      }
    } finally {
      client.socket.off('moved', onMoved);
      client.socket.off('ended', onEnded);
    }
  }
}

/** An agent through the SDK, registered by the admin, answering every turn with a random legal move. */
export async function randomAgent(url: string, name: string, random: () => number): Promise<Agent> {
  const token = await newAgentToken(url, name);
  const agent = await connectAgent({ url, token });
  agent.onTurn((turn) => turn.legal[Math.floor(random() * turn.legal.length)] ?? null);
  return agent;
}

/** Waits until the tournament is finished; returns it. */
export async function untilFinished(url: string, id: string, timeoutMs: number): Promise<TournamentView> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const got = await getJson<{ ok: boolean; tournament: TournamentView }>(`${url}/api/tournaments/${id}`).catch(() => undefined);
    if (got?.tournament?.status === 'finished') return got.tournament;
    if (Date.now() > until) throw new Error(`tournament ${id} not finished in ${timeoutMs} ms: round ${got?.tournament?.round}`);
    await sleep(250);
  }
}

/** Waits until the tournament has reached `round`. */
export async function untilRound(url: string, id: string, round: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const got = await getJson<{ tournament: TournamentView }>(`${url}/api/tournaments/${id}`).catch(() => undefined);
    if ((got?.tournament?.round ?? 0) >= round) return;
    if (Date.now() > until) throw new Error(`tournament ${id} did not reach round ${round}`);
    await sleep(100);
  }
}

interface GameRecordLite {
  readonly id: string;
  readonly game: GameId;
  readonly status: string;
  readonly moves: readonly string[];
  readonly result: { winner: Color | null; reason: string } | null;
}

/**
 * The points of each entrant counted again from the finished games' records and the byes, by
 * the rules written out here, apart from the server's code: Swiss and round robin 1, ½, 0 and a
 * bye 1; arena 2, 1, 0, doubled after two wins in a row. An aborted game is lost by its mover.
 */
export function recount(t: TournamentView, records: readonly GameRecordLite[]): Map<string, number> {
  const byId = new Map(records.map((r) => [r.id, r]));
  const sequence = new Map<string, ('w' | 'd' | 'l')[]>(t.standings.map((row) => [row.id, []]));
  for (const p of [...t.pairings].sort((a, b) => a.round - b.round || a.table - b.table)) {
    if (p.white === null) {
      sequence.get(p.black)!.push('w');
      continue;
    }
    let winner: Color | 'draw';
    if (p.gameId === null) winner = p.winner as Color | 'draw';
    else {
      const record = byId.get(p.gameId);
      expect(record?.status, `game ${p.gameId}`).toBe('finished');
      winner = record!.result!.winner ?? (record!.result!.reason === 'aborted' ? (moverAt(record!.game, record!.moves.length) === 'black' ? 'white' : 'black') : 'draw');
    }
    sequence.get(p.black)!.push(winner === 'draw' ? 'd' : winner === 'black' ? 'w' : 'l');
    sequence.get(p.white)!.push(winner === 'draw' ? 'd' : winner === 'white' ? 'w' : 'l');
  }
  const points = new Map<string, number>();
  for (const [id, games] of sequence) {
    if (t.format !== 'arena') points.set(id, games.reduce((sum, g) => sum + (g === 'w' ? 1 : g === 'd' ? 0.5 : 0), 0));
    else {
      let total = 0;
      let wins = 0;
      for (const g of games) {
        const value = g === 'w' ? 2 : g === 'd' ? 1 : 0;
        total += wins >= 2 ? value * 2 : value;
        wins = g === 'w' ? wins + 1 : 0;
      }
      points.set(id, total);
    }
  }
  return points;
}

/** The checks every format shares: the deltas wrote each pairing once and never changed its players; standings equal the recount. */
export async function checkTournament(url: string, t: TournamentView, deltas: readonly TournamentDelta[]): Promise<void> {
  const { games } = await getJson<{ games: GameRecordLite[] }>(`${url}/api/tournaments/${t.id}/games`);
  const points = recount(t, games);
  for (const row of t.standings) expect(row.points, row.name).toBe(points.get(row.id));
  const firstSeen = new Map<string, PairingView>();
  for (const delta of deltas) {
    for (const p of delta.pairings) {
      const key = `${p.round}/${p.table}`;
      const seen = firstSeen.get(key);
      if (seen) expect([p.black, p.white, p.gameId], `pairing ${key}`).toEqual([seen.black, seen.white, seen.gameId]);
      else firstSeen.set(key, p);
    }
  }
  // Every pairing the tournament holds was announced, with the same players.
  for (const p of t.pairings) expect(firstSeen.get(`${p.round}/${p.table}`)?.black, `pairing ${p.round}/${p.table} announced`).toBe(p.black);
  const ranks = t.standings.map((r) => r.rank);
  expect(ranks).toEqual(ranks.map((_, i) => i + 1));
}

/** Each entrant at most once per round; colours: never three alike in a row, never more than two apart. */
export function checkRounds(t: TournamentView, options: { noRematch: boolean }): void {
  const rounds = new Map<number, PairingView[]>();
  for (const p of t.pairings) rounds.set(p.round, [...(rounds.get(p.round) ?? []), p]);
  const met = new Set<string>();
  for (const [round, pairings] of rounds) {
    const seen = pairings.flatMap((p) => [p.black, p.white]).filter((id): id is string => id !== null);
    expect(new Set(seen).size, `round ${round}: each once`).toBe(seen.length);
    for (const p of pairings) {
      if (p.white === null || !options.noRematch) continue;
      const key = [p.black, p.white].sort().join('|');
      expect(met.has(key), `rematch ${key} in round ${round}`).toBe(false);
      met.add(key);
    }
  }
}

export function colourRuns(t: TournamentView): Map<string, Color[]> {
  const colours = new Map<string, Color[]>();
  for (const p of [...t.pairings].sort((a, b) => a.round - b.round)) {
    if (p.white === null || p.gameId === null) continue;
    colours.set(p.black, [...(colours.get(p.black) ?? []), 'black']);
    colours.set(p.white, [...(colours.get(p.white) ?? []), 'white']);
  }
  return colours;
}

/** Collects a follower's deltas. */
export async function follow(url: string, id: string): Promise<{ client: Client; deltas: TournamentDelta[] }> {
  const client = await new Client(url).connected();
  const deltas: TournamentDelta[] = [];
  client.socket.on('tournament:delta', (d: TournamentDelta) => deltas.push(d));
  const followed = await client.ask<{ tournament: TournamentView }>('tournament:follow', { tournamentId: id });
  if (!followed.ok) throw new Error(followed.error.code);
  // What was there before following counts as announced.
  deltas.push({ id, version: followed.tournament.version, status: followed.tournament.status, round: followed.tournament.round, standings: followed.tournament.standings, pairings: followed.tournament.pairings });
  return { client, deltas };
}
