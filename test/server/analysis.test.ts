import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisStatus, GameAnalysis, GameView } from '../../shared/protocol/index.js';
import type { Boardroom } from '../../server/app.js';
import { BOT_QUEUE } from '../../server/runtime/bullmq-bot-turns.js';
import { startRedis } from '../support/redis.js';
import { Client, expectOk, playScripted, startBotWorker, startServer } from '../support/server.js';

// The embedded mode: the analysis runs on the same local threads as bot turns, 5 ms a position;
// then Redis mode, with the built processor in a BullMQ worker (npm test builds first).
let server: Boardroom;
beforeAll(async () => {
  server = await startServer({ ANALYSIS_PLY_MS: '5' });
});
afterAll(async () => {
  await server?.close();
});

const http = async (method: 'GET' | 'POST', gameId: string): Promise<{ status: number; body: { ok: boolean; status?: AnalysisStatus; error?: { code: string } } }> => {
  const res = await fetch(`${server.url}/api/games/${encodeURIComponent(gameId)}/analysis`, { method });
  return { status: res.status, body: (await res.json()) as { ok: boolean; status?: AnalysisStatus; error?: { code: string } } };
};

describe('post-game analysis (embedded)', () => {
  it('refuses an unknown game and one not finished with stable codes', async () => {
    const ann = await new Client(server.url).connected();
    const unknown = await ann.ask('analysis:request', { gameId: 'no-such-game' });
    expect(unknown.ok === false && unknown.error.code).toBe('room/not_found');
    expect(await http('GET', 'no-such-game')).toMatchObject({ status: 404, body: { ok: false, error: { code: 'room/not_found' } } });
    const waiting = expectOk(await ann.ask<{ gameId: string }>('room:create', { game: 'othello', seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'black' } }));
    const early = await ann.ask('analysis:request', { gameId: waiting.gameId });
    expect(early.ok === false && early.error.code).toBe('analysis/not_finished');
    expect(await http('POST', waiting.gameId)).toMatchObject({ status: 409, body: { error: { code: 'analysis/not_finished' } } });
    const bad = await ann.ask('analysis:request', { gameId: 42 });
    expect(bad.ok === false && bad.error.code).toBe('payload/invalid');
    ann.close();
  });

  it('a finished game gets one evaluation per ply, once, however often it is asked', async () => {
    const ann = await new Client(server.url).connected();
    const bob = await new Client(server.url).connected();
    const created = expectOk(await ann.ask<{ gameId: string }>('room:create', { game: 'minichess', seats: { black: { kind: 'bot', bot: 'random' }, white: { kind: 'bot', bot: 'random' } } }));
    const { gameId } = created;
    const ended = await ann.waitFor<{ view: GameView }>('ended', (e) => e.view.id === gameId);
    expect(await http('GET', gameId)).toMatchObject({ status: 200, body: { status: { gameId, state: 'none' } } });

    // Three requests at once, from two connections and HTTP: one job.
    const [a, b, c] = await Promise.all([ann.ask<{ status: AnalysisStatus }>('analysis:request', { gameId }), bob.ask<{ status: AnalysisStatus }>('analysis:request', { gameId }), http('POST', gameId)]);
    expect(expectOk(a).status.state).toBe('pending');
    expect(expectOk(b).status.state).toBe('pending');
    expect(c.status).toBe(202);
    const record = (await (await fetch(`${server.url}/api/games/${gameId}`)).json()) as { moves: string[]; start: string };
    const plies = record.moves.length;
    expect(plies).toBe(ended.view.ply);
    const done = await ann.waitFor<AnalysisStatus>('analysis', (s) => s.gameId === gameId && s.state === 'done');
    await bob.waitFor<AnalysisStatus>('analysis', (s) => s.gameId === gameId && s.state === 'done');
    const analysis = (done as { analysis: GameAnalysis }).analysis;

    expect(analysis.evaluations.map((e) => e.ply)).toEqual(Array.from({ length: plies + 1 }, (_, i) => i));
    expect(analysis.moves.map((m) => m.move)).toEqual(record.moves);
    for (const e of analysis.evaluations) expect(Math.abs(e.value)).toBeLessThanOrEqual(1);
    // The last position is the game's end (random bots play to the rules' end): its outcome, proven.
    const winner = ended.view.result?.winner;
    expect(analysis.evaluations[plies]).toMatchObject({ value: winner === 'black' ? 1 : winner === 'white' ? -1 : 0, proven: true, best: null });
    for (const m of analysis.moves) {
      expect(m.loss).toBeGreaterThanOrEqual(0);
      if (m.mark) expect(m.best).not.toBe(m.move);
    }
    // The progress reached each connection once per position: the job ran once.
    const progress = (c: Client) => c.events.filter((e) => e.event === 'analysis' && (e.data as AnalysisStatus).state === 'pending' && (e.data as { done: number }).done === plies + 1);
    expect(progress(ann)).toHaveLength(1);
    expect(progress(bob)).toHaveLength(1);

    // Asked again: the cached analysis, not a new run.
    const again = expectOk(await bob.ask<{ status: AnalysisStatus }>('analysis:request', { gameId })).status;
    expect(again).toEqual({ gameId, state: 'done', analysis });
    expect(await http('GET', gameId)).toMatchObject({ status: 200, body: { status: { state: 'done', analysis: { finishedAt: analysis.finishedAt } } } });
    expect((await http('POST', gameId)).status).toBe(200);
    ann.close();
    bob.close();
  });

  it("charges a new analysis to the asker's bot seconds: over the minute's limit, the next is refused", async () => {
    // One bot second a minute; a 9-move game at 60 ms a position is charged 2 × 10 × 60 ms.
    const tight = await startServer({ ANALYSIS_PLY_MS: '60', QUOTA_BOT_SECONDS_PER_MINUTE: '1' });
    try {
      const moves = ['h8', 'a1', 'i8', 'a3', 'j8', 'a5', 'k8', 'a7', 'l8'];
      const first = await playScripted(tight.url, 'gomoku', moves);
      const second = await playScripted(tight.url, 'gomoku', moves);
      const ann = await new Client(tight.url).connected();
      expect(expectOk(await ann.ask<{ status: AnalysisStatus }>('analysis:request', { gameId: first.gameId })).status.state).toBe('pending');
      // Asking again for the pending one costs nothing; a new one is over the limit.
      expect(expectOk(await ann.ask<{ status: AnalysisStatus }>('analysis:request', { gameId: first.gameId })).status.state).toBe('pending');
      const refused = await ann.ask('analysis:request', { gameId: second.gameId });
      expect(refused.ok === false && refused.error.code).toBe('quota/bot_seconds');
      expect(refused.ok === false && refused.error.retryAfterMs).toBeGreaterThan(0);
      const res = await fetch(`${tight.url}/api/games/${second.gameId}/analysis`, { method: 'POST' });
      expect(res.status).toBe(429);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('quota/bot_seconds');
      // Nothing was claimed for the refused game: it may be asked for later.
      expect(((await (await fetch(`${tight.url}/api/games/${second.gameId}/analysis`)).json()) as { status: AnalysisStatus }).status.state).toBe('none');
      await ann.waitFor<AnalysisStatus>('analysis', (s) => s.gameId === first.gameId && s.state === 'done');
      ann.close();
    } finally {
      await tight.close();
    }
  });
});

describe('post-game analysis (Redis, a BullMQ bot worker)', () => {
  it('runs as one job of the bot queue however often asked, beside bot turns that keep being answered', async () => {
    const redis = await startRedis();
    const prefix = 'analysis';
    const web = await startServer({ REDIS_URL: redis.url, REDIS_PREFIX: prefix, ANALYSIS_PLY_MS: '5' });
    const worker = startBotWorker(redis.url, prefix);
    const queue = new Queue(BOT_QUEUE, { connection: redis.client(), prefix });
    try {
      const moves = ['h8', 'a1', 'i8', 'a3', 'j8', 'a5', 'k8', 'a7', 'l8'];
      const { gameId } = await playScripted(web.url, 'gomoku', moves);
      const ann = await new Client(web.url).connected();
      const bob = await new Client(web.url).connected();
      // A bot game in the same queue at the same time.
      const bots = expectOk(await bob.ask<{ gameId: string }>('room:create', { game: 'minichess', seats: { black: { kind: 'bot', bot: 'engine-1' }, white: { kind: 'bot', bot: 'random' } } }));
      const asked = await Promise.all([ann.ask<{ status: AnalysisStatus }>('analysis:request', { gameId }), bob.ask<{ status: AnalysisStatus }>('analysis:request', { gameId })]);
      for (const a of asked) expect(expectOk(a).status.state).toBe('pending');
      const done = (await ann.waitFor<AnalysisStatus>('analysis', (s) => s.gameId === gameId && s.state === 'done')) as Extract<AnalysisStatus, { state: 'done' }>;
      expect(done.analysis.evaluations).toHaveLength(moves.length + 1);
      expect(done.analysis.moves[5]).toMatchObject({ move: 'a5', mark: 'blunder' });
      const jobs = await queue.getJobs(['completed', 'active', 'waiting', 'prioritized', 'delayed', 'failed']);
      expect(jobs.filter((j) => j.name === 'analysis').map((j) => j.id)).toEqual([`${gameId}-analysis`]);
      // The bot game is played to its end, its turns answered around the analysis.
      const ended = await bob.waitFor<{ view: GameView }>('ended', (e) => e.view.id === bots.gameId, 60_000);
      expect(ended.view.status).toBe('finished');
      const again = expectOk(await ann.ask<{ status: AnalysisStatus }>('analysis:request', { gameId })).status;
      expect(again).toEqual(done);
      ann.close();
      bob.close();
    } finally {
      await queue.close();
      await web.close();
      await worker.close();
      await redis.stop();
    }
  });
});
