import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GAMES } from '../../shared/games.js';
import { applyMoved, PROTOCOL_VERSION, type GameView, type MovedEvent } from '../../shared/protocol/index.js';
import { seededRandom } from '../../shared/random.js';
import { GAME_IDS, type GameId } from '../../shared/rules.js';
import type { Boardroom } from '../../server/app.js';
import { Client, expectOk, startServer } from '../support/server.js';

// Moves travel as deltas: a `moved` event and a move's acknowledgement carry what changed, and
// clients rebuild the view with the rules; a client that misses one asks for the whole view.
let server: Boardroom;
beforeAll(async () => {
  server = await startServer({ RATE_LIMIT: '10000' });
});
afterAll(() => server?.close());

type Created = { gameId: string; seat: { token: string }; view: GameView };

/** A room of two human seats both held by `host`, with a watcher. */
async function room(host: Client, game: GameId, timeControl: object = { kind: 'none' }) {
  const created = expectOk(await host.ask<Created>('room:create', { game, timeControl, seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'black' } }));
  const joined = expectOk(await host.ask<{ seat: { token: string }; view: GameView }>('room:join', { gameId: created.gameId, name: 'Bob', color: 'white' }));
  return { id: created.gameId, tokens: { black: created.seat.token, white: joined.seat.token }, view: joined.view };
}

/** The view without its clock readings, which differ by when they were read. */
const settled = (view: GameView) => ({ ...view, clock: { ...view.clock, at: 0, black: null, white: null } });

/** A legal move that does not end the game, if there is one (so a Gomoku game can run long). */
function quietMove(view: GameView, random: () => number): string {
  const { rules } = GAMES[view.game];
  const position = rules.parsePosition(view.position, view.options);
  if (!position.ok) throw new Error(position.error.message);
  const shuffled = [...view.legal].sort(() => random() - 0.5);
  const quiet = (m: string): boolean => {
    const move = rules.parseMove(m);
    return move.ok && rules.outcome(rules.play(position.value, move.value)) === null;
  };
  return shuffled.find(quiet) ?? shuffled[0]!;
}

describe('moves as deltas', () => {
  it('keeps a moved event the same small size at ply 1 and at ply 200, with a clock', async () => {
    const host = await new Client(server.url).connected();
    const watcher = await new Client(server.url).connected();
    const g = await room(host, 'gomoku', { kind: 'bank', initialMs: 3_600_000, incrementMs: 30_000 });
    expectOk(await watcher.ask('room:watch', { gameId: g.id }));
    let view = g.view;
    const random = seededRandom(7);
    while (view.ply < 201 && view.status === 'live') {
      const ack = expectOk(await host.ask<{ moved: MovedEvent }>('move', { gameId: g.id, token: g.tokens[view.toMove], ply: view.ply, move: quietMove(view, random) }));
      view = applyMoved(view, ack.moved)!;
    }
    expect(view.ply).toBe(201);
    await watcher.waitFor<MovedEvent>('moved', (e) => e.ply === 200);
    const sizes = new Map<number, number>();
    for (const e of watcher.events) if (e.event === 'moved') sizes.set((e.data as MovedEvent).ply, JSON.stringify(e.data).length);
    console.log(`moved event bytes: ply 1 ${sizes.get(1)}, ply 200 ${sizes.get(200)}`);
    expect(sizes.get(1)).toBeLessThan(250);
    expect(sizes.get(200)).toBeLessThan(250);
    expect(Math.abs(sizes.get(200)! - sizes.get(1)!)).toBeLessThanOrEqual(4); // a longer move name, a later time
    host.close();
    watcher.close();
  });

  it('rebuilds with the rules exactly the view the server has, in every game; the acknowledgement is the room’s delta', async () => {
    const host = await new Client(server.url).connected();
    for (const game of GAME_IDS) {
      const watcher = await new Client(server.url).connected();
      const g = await room(host, game);
      let seen = expectOk(await watcher.ask<{ view: GameView }>('room:watch', { gameId: g.id })).view;
      let view = g.view;
      for (let i = 0; i < 40 && view.status === 'live'; i++) {
        const move = view.legal[(i * 7) % view.legal.length]!;
        const ack = expectOk(await host.ask<{ ply: number; moved: MovedEvent }>('move', { gameId: g.id, token: g.tokens[view.toMove], ply: view.ply, move }));
        view = applyMoved(view, ack.moved)!;
        const heard = await watcher.waitFor<MovedEvent>('moved', (e) => e.gameId === g.id && e.ply === ack.ply);
        expect(heard).toEqual(ack.moved);
        seen = applyMoved(seen, heard)!;
        const truth = expectOk(await watcher.ask<{ view: GameView }>('room:sync', { gameId: g.id })).view;
        expect(settled(seen), `${game} ply ${truth.ply}`).toEqual(settled(truth));
      }
      watcher.close();
    }
    host.close();
  });

  it('the mover’s connection has its move in the acknowledgement only; its other tab and the opponent hear it as the room does', async () => {
    const ann = await new Client(server.url).connected();
    const bob = await new Client(server.url).connected();
    const annOtherTab = await new Client(server.url).connected();
    const created = expectOk(await ann.ask<Created>('room:create', { game: 'othello', timeControl: { kind: 'none' }, seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'black' } }));
    const joined = expectOk(await bob.ask<{ seat: { token: string }; view: GameView }>('room:join', { gameId: created.gameId, name: 'Bob', color: 'white' }));
    expectOk(await annOtherTab.ask('room:resume', { gameId: created.gameId, token: created.seat.token }));
    const view = joined.view;
    const ack = expectOk(await ann.ask<{ ply: number; moved: MovedEvent }>('move', { gameId: created.gameId, token: created.seat.token, ply: view.ply, move: view.legal[0] }));
    expect(await bob.waitFor<MovedEvent>('moved', (e) => e.gameId === created.gameId && e.ply === ack.ply)).toEqual(ack.moved);
    expect(await annOtherTab.waitFor<MovedEvent>('moved', (e) => e.gameId === created.gameId && e.ply === ack.ply)).toEqual(ack.moved);
    // Bob's answer reaches Ann as an event: only her own moves are left out.
    const after = applyMoved(view, ack.moved)!;
    const answer = expectOk(await bob.ask<{ ply: number; moved: MovedEvent }>('move', { gameId: created.gameId, token: joined.seat.token, ply: after.ply, move: after.legal[0] }));
    await ann.waitFor<MovedEvent>('moved', (e) => e.gameId === created.gameId && e.ply === answer.ply);
    expect(ann.events.filter((e) => e.event === 'moved' && (e.data as MovedEvent).ply === ack.ply)).toEqual([]);
    for (const c of [ann, bob, annOtherTab]) c.close();
  });

  it('a client that misses an event sees the gap and recovers with room:sync', async () => {
    const host = await new Client(server.url).connected();
    const watcher = await new Client(server.url).connected();
    const g = await room(host, 'othello');
    let seen = expectOk(await watcher.ask<{ view: GameView }>('room:watch', { gameId: g.id })).view;
    let view = g.view;
    let gaps = 0;
    const dropped = 3;
    watcher.socket.on('moved', (e: MovedEvent) => {
      if (e.ply === dropped) return; // lost on the way
      const next = applyMoved(seen, e);
      if (next) seen = next;
      else {
        gaps++;
        void watcher.ask<{ view: GameView }>('room:sync', { gameId: g.id }).then((ack) => ack.ok && ack.view.ply >= seen.ply && (seen = ack.view), () => undefined);
      }
    });
    for (let i = 0; i < 8; i++) {
      const ack = expectOk(await host.ask<{ moved: MovedEvent }>('move', { gameId: g.id, token: g.tokens[view.toMove], ply: view.ply, move: view.legal[0] }));
      view = applyMoved(view, ack.moved)!;
    }
    await expect.poll(() => seen.ply, { timeout: 3000 }).toBe(8);
    expect(gaps).toBeGreaterThanOrEqual(1);
    expect(settled(seen)).toEqual(settled(expectOk(await watcher.ask<{ view: GameView }>('room:sync', { gameId: g.id })).view));
    host.close();
    watcher.close();
  });

  it('refuses a handshake naming another protocol version', async () => {
    const old = new Client(server.url, '/', { protocol: '1' as unknown as string });
    await expect(old.connected()).rejects.toMatchObject({ data: { code: 'protocol/unsupported' } });
    const current = await new Client(server.url, '/', { protocol: PROTOCOL_VERSION as unknown as string }).connected();
    current.close();
  });
});
