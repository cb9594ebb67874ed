import { afterAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../support/redis.js';
import { connect } from './client.js';
import { spawnYardstick } from './yardstick-process.js';

describe('the yardstick with YARDSTICK_REDIS (the floor under the Redis mode\'s cost)', () => {
  let redis: TestRedis | undefined;
  let stop = (): void => undefined;
  afterAll(async () => {
    stop();
    await redis?.stop();
  });

  it('writes each move to Redis before acknowledging it, and refuses a stale one', async () => {
    redis = await startRedis();
    const { child, url } = await spawnYardstick([], redis.url);
    stop = () => child.kill('SIGKILL');
    const socket = await connect(url);
    const created = (await socket.emitWithAck('room:create', {})) as { gameId: string };
    expect(await socket.emitWithAck('move', { gameId: created.gameId, ply: 0, move: 'f5' })).toMatchObject({ ok: true, ply: 0 });
    expect(await socket.emitWithAck('move', { gameId: created.gameId, ply: 1, move: 'd6' })).toMatchObject({ ok: true, ply: 1 });
    expect(await socket.emitWithAck('move', { gameId: created.gameId, ply: 1, move: 'c3' })).toMatchObject({ ok: false });
    const client = redis.client();
    expect(await client.hget(`y:{${created.gameId}}`, 'version')).toBe('2');
    expect((await client.lrange(`y:{${created.gameId}}:moves`, 0, -1)).map((m) => (JSON.parse(m) as { move: string }).move)).toEqual(['f5', 'd6']);
    expect((await client.hget(`y:{${created.gameId}}`, 'doc'))!.length).toBeGreaterThan(900);
    socket.disconnect();
  });
});
