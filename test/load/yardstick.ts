/**
 * The yardstick for `npm run bench:server`: bare Socket.IO carrying the server's traffic shape and
 * nothing else. A room of two sockets; each move is acknowledged to its sender and broadcast to
 * the room as the same delta the real server sends, with no rules, no store and no clocks. What
 * the real server carries is measured as a share of what this carries on the same machine.
 *
 *   node --import tsx test/load/yardstick.ts   (prints its port, then serves until killed)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
const tables = new Map<string, Table>();
let made = 0;

io.on('connection', (socket) => {
  socket.on('room:create', (_payload: unknown, ack: (a: unknown) => void) => {
    const gameId = `y${++made}`;
    tables.set(gameId, { ply: 0 });
    void socket.join(gameId);
    ack({ ok: true, gameId, seat: { gameId, color: 'black', token: 'x'.repeat(43) } });
  });
  socket.on('room:join', (payload: { gameId: string }, ack: (a: unknown) => void) => {
    void socket.join(payload.gameId);
    ack({ ok: true, seat: { gameId: payload.gameId, color: 'white', token: 'y'.repeat(43) } });
  });
  socket.on('move', (payload: { gameId: string; ply: number; move: string }, ack: (a: unknown) => void) => {
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
