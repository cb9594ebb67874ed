/**
 * The yardstick for `npm run bench:server`: bare Socket.IO carrying the server's traffic shape and
 * nothing else. A room of two sockets; each move is acknowledged to its sender and broadcast to
 * the room as the same delta the real server sends, with no rules, no store and no clocks. What
 * the real server carries is measured as a share of what this carries on the same machine.
 *
 * With YARDSTICK_REDIS set (a redis:// URL), each move also does the least a server keeping its
 * games in Redis must: one script call that checks the game's version and writes its document and
 * move (a document of the real one's size), and one publish of the delta for the other web
 * processes, on a channel this process hears too; the acknowledgement waits for the write. What
 * that costs over bare Socket.IO is the floor under the Redis mode's figure.
 *
 *   node --import tsx test/load/yardstick.ts   (prints its port, then serves until killed)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';

interface Table {
  ply: number;
}

const http = createServer((req, res) => {
  // The same figures the real server's /metrics gives the bench: CPU seconds and resident memory.
  if (req.url === '/metrics') {
    const cpu = process.cpuUsage();
    res.end(`boardroom_process_cpu_seconds_total ${(cpu.user + cpu.system) / 1e6}\nboardroom_process_resident_memory_bytes ${process.memoryUsage().rss}\n`);
  } else res.end('{"ok":true}');
});
const io = new Server(http, { maxHttpBufferSize: 16 * 1024 });

/** KEYS: the game's hash and moves list. ARGV: the version before, the document, the move. */
const WRITE = `
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'doc', ARGV[2], 'version', tonumber(ARGV[1]) + 1)
redis.call('RPUSH', KEYS[2], ARGV[3])
return 1`;
const CHANNEL = 'yardstick:moves';
const ME = `${process.pid} `;
/** What a live game's document holds besides the move: seats, clock, options (the real one's size, about 1 KB). */
const DOCUMENT_REST = 'x'.repeat(900);
const redisUrl = process.env.YARDSTICK_REDIS;
const store = redisUrl ? new Redis(redisUrl, { enableAutoPipelining: true }) : undefined;
const publisher = redisUrl ? new Redis(redisUrl, { enableAutoPipelining: true }) : undefined;
if (redisUrl) {
  store!.defineCommand('yardstickWrite', { numberOfKeys: 2, lua: WRITE });
  const subscriber = new Redis(redisUrl);
  subscriber.on('message', (_channel: string, message: string) => {
    if (!message.startsWith(ME)) JSON.parse(message.slice(ME.length));
  });
  await subscriber.subscribe(CHANNEL);
}
const write = (gameId: string, ply: number, moved: object): Promise<unknown> =>
  (store as unknown as { yardstickWrite(...args: (string | number)[]): Promise<unknown> }).yardstickWrite(`y:{${gameId}}`, `y:{${gameId}}:moves`, ply, JSON.stringify({ moved, rest: DOCUMENT_REST }), JSON.stringify(moved));
const tables = new Map<string, Table>();
let made = 0;

io.on('connection', (socket) => {
  socket.on('room:create', async (_payload: unknown, ack: (a: unknown) => void) => {
    const gameId = `y${++made}`;
    tables.set(gameId, { ply: 0 });
    await store?.hset(`y:{${gameId}}`, 'version', 0);
    void socket.join(gameId);
    ack({ ok: true, gameId, seat: { gameId, color: 'black', token: 'x'.repeat(43) } });
  });
  socket.on('room:join', (payload: { gameId: string }, ack: (a: unknown) => void) => {
    void socket.join(payload.gameId);
    ack({ ok: true, seat: { gameId: payload.gameId, color: 'white', token: 'y'.repeat(43) } });
  });
  socket.on('move', async (payload: { gameId: string; ply: number; move: string }, ack: (a: unknown) => void) => {
    const table = tables.get(payload.gameId);
    if (!table || payload.ply !== table.ply) return ack({ ok: false, error: { code: 'move/stale_ply', message: 'stale' } });
    table.ply++;
    const moved = {
      gameId: payload.gameId,
      ply: payload.ply,
      move: payload.move,
      color: payload.ply % 2 === 0 ? 'black' : 'white',
      clock: { black: null, white: null, running: null, at: Date.now() },
      status: 'live',
      result: null,
      drawOffer: null,
    };
    if (store && (await write(payload.gameId, payload.ply, moved)) !== 1) return ack({ ok: false, error: { code: 'move/stale_ply', message: 'stale' } });
    void publisher?.publish(CHANNEL, ME + JSON.stringify(moved));
    ack({ ok: true, ply: payload.ply, moved });
    io.to(payload.gameId).emit('moved', moved);
  });
  socket.on('room:leave', (payload: { gameId: string }, ack: (a: unknown) => void) => {
    tables.delete(payload.gameId);
    ack({ ok: true });
  });
});

http.listen(0, '127.0.0.1', () => console.log(`yardstick is up on http://localhost:${(http.address() as AddressInfo).port}`));
process.on('SIGTERM', () => process.exit(0));
