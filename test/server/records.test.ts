import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameView } from '../../shared/protocol/index.js';
import type { Boardroom } from '../../server/app.js';
import { Client, expectOk, playMove, startServer } from '../support/server.js';

// Records out over HTTP, on an embedded server (no Redis): a finished game in its field's format.
let server: Boardroom;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

type Created = { gameId: string; seat: { color: 'black' | 'white'; token: string }; view: GameView };

/** Ann (black) and Bob (white) play `moves` in turn, then Ann resigns. */
async function finishedGame(game: 'othello' | 'gomoku' | 'minichess', moves: string[]): Promise<string> {
  const ann = await new Client(server.url).connected();
  const bob = await new Client(server.url).connected();
  try {
    const created = expectOk(await ann.ask<Created>('room:create', { game, seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'black' } }));
    const joined = expectOk(await bob.ask<Created>('room:join', { gameId: created.gameId, name: 'Bob', color: 'white' }));
    let view = joined.view;
    for (const move of moves) {
      const [who, token] = view.toMove === 'black' ? [ann, created.seat.token] : [bob, joined.seat.token];
      view = await playMove(who, view, token, move);
    }
    expectOk(await ann.ask('resign', { gameId: created.gameId, token: created.seat.token }));
    return created.gameId;
  } finally {
    ann.close();
    bob.close();
  }
}

const get = (path: string) => fetch(`${server.url}${path}`);

/** The time each move took, as the game's JSON record gives it. */
async function moveMs(id: string): Promise<number[]> {
  const record = (await (await get(`/api/games/${id}`)).json()) as { moves: string[]; moveMs: (number | null)[] };
  expect(record.moveMs).toHaveLength(record.moves.length);
  for (const ms of record.moveMs) expect(ms).toBeGreaterThanOrEqual(0);
  return record.moveMs as number[];
}

describe('GET /api/games/:id?format=', () => {
  it('gives an Othello game as GGF, to download', async () => {
    const id = await finishedGame('othello', ['f5', 'd6', 'c3']);
    const res = await get(`/api/games/${id}?format=ggf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="?boardroom-othello-${id}\\.ggf"?$`));
    const text = await res.text();
    expect(text).toMatch(/^\(;GM\[Othello\]PC\[Boardroom\]DT\[[\d.]+_[\d:]+\.UTC\]PB\[Ann\]PW\[Bob\]RE\[-64\.000:r\]TI\[0\/\/0\]TY\[8\]BO\[8 [-*O]{64} \*\]B\[F5\/\/[\d.]+\]W\[D6\/\/[\d.]+\]B\[C3\/\/[\d.]+\];\)$/);
    const seconds = (await moveMs(id)).map((ms) => (ms / 1000).toFixed(2));
    expect(text).toContain(`B[F5//${seconds[0]}]W[D6//${seconds[1]}]B[C3//${seconds[2]}]`);
  });

  it('gives a Gomoku game as PSQ and a MiniChess game as PGN', async () => {
    const gomoku = await finishedGame('gomoku', ['h8', 'a15']);
    const psq = await get(`/api/games/${gomoku}?format=psq`);
    expect(psq.status).toBe(200);
    const [first, second] = await moveMs(gomoku);
    expect(await psq.text()).toBe(`Piskvorky 15x15, 0:0, 0\n8,8,${first}\n1,1,${second}\nAnn\nBob\n0\n`);
    const minichess = await finishedGame('minichess', ['b2b3', 'd5d4']);
    const pgn = await get(`/api/games/${minichess}?format=pgn`);
    expect(pgn.headers.get('content-disposition')).toMatch(/^attachment; filename="?boardroom-minichess-[^"]+\.pgn"?$/);
    const text = await pgn.text();
    expect(text).toContain('[White "Bob"]\n[Black "Ann"]\n[Result "1-0"]');
    // The room's default time control (30 s a move) gives each move's clock too.
    expect(text).toMatch(/\n\n1\. b2b3 \{\[%clk [\d:.]+\] \[%emt 0:00:[\d.]+\]\} d5d4 \{\[%clk [\d:.]+\] \[%emt 0:00:[\d.]+\]\}\s1-0\n/);
  });

  it('refuses an unknown format, or another game’s, with record/bad_format; an unknown game is 404; json stays the default', async () => {
    const id = await finishedGame('othello', ['f5']);
    for (const query of ['format=sgf', 'format=psq', 'format=ggf&format=pgn']) {
      const res = await get(`/api/games/${id}?${query}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ ok: false, error: { code: 'record/bad_format' } });
    }
    const missing = await get('/api/games/no-such-game?format=ggf');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ ok: false, error: { code: 'room/not_found' } });
    const json = await get(`/api/games/${id}`);
    expect(await json.json()).toMatchObject({ ok: true, id, record: 'f5' });
  });
});
