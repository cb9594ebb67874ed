import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import type { Socket } from 'socket.io-client';
import { applyMoved, type Ack, type GameView, type MovedEvent, type TimeControl } from '../../shared/protocol/index.js';
import { GAME_IDS } from '../../shared/rules.js';
import { connect } from './client.js';

const HELP = `Usage: npm run seed -- [--url URL] [--games N] [--moves-per-second M] [--minutes T]

Fills a running server with N live games of two people each, and keeps them moving: M random
legal moves a second spread over all of them (a finished game is replaced by a new one). Few
connections hold all the seats, so the server's cost is the games, not the sockets. Made for
watching the admin console under load; start the server with its per-owner limits raised:
  QUOTA_LIVE_ROOMS=100000 QUOTA_ROOMS_PER_MINUTE=100000 RATE_LIMIT=10000 ADMIN_TOKEN=… npm start

  --url URL               the server (default http://127.0.0.1:3000)
  --games N               live games to keep (default 2000)
  --moves-per-second M    moves a second over all games (default 400)
  --minutes T             how long to keep them moving (default 10)`;

const SOCKETS = 20;
const TICK_MS = 50;

interface Table {
  readonly id: string;
  readonly socket: Socket;
  readonly tokens: { readonly black: string; readonly white: string };
  view: GameView;
  busy: boolean;
}

export interface SeededGames {
  /** The live games' ids, in the order they were made (a replaced game takes its slot). */
  ids(): string[];
  /** The two seats' names of the game in slot `i`. */
  readonly names: (i: number) => [string, string];
  /** Plays one move in the game now; resolves with the game's ply after it (its view when it ended). */
  moveNow(gameId: string): Promise<GameView | undefined>;
  readonly stats: { moves: number; errors: number; replaced: number };
  stop(): Promise<void>;
}

/** A move's acknowledgement: its delta (protocol 2), or the whole view (a build before it, measured against). */
export type MoveAck = { moved: MovedEvent } | { view: GameView };
export function viewAfter(view: GameView, ack: MoveAck): GameView {
  if ('view' in ack) return ack.view;
  const next = applyMoved(view, ack.moved);
  if (!next) throw new Error(`the delta of ply ${ack.moved.ply} does not follow ply ${view.ply}`);
  return next;
}

/** How the games are made and followed: their clock (none by default), and each accepted move's ack time in ms. */
export interface SeedSetup {
  readonly timeControl?: TimeControl;
  readonly onAck?: (ms: number) => void;
}

/** Makes `games` live games from a few connections and keeps `movesPerSecond` moves a second going over them. */
export async function seedGames(url: string, games: number, movesPerSecond: number, progress?: (made: number) => void, setup: SeedSetup = {}): Promise<SeededGames> {
  const sockets = await Promise.all(Array.from({ length: Math.min(SOCKETS, games) }, () => connect(url)));
  const slots: Table[] = [];
  const byId = new Map<string, { table: Table; slot: number }>();
  const stats = { moves: 0, errors: 0, replaced: 0 };
  const names = (i: number): [string, string] => [`seed${i}-a`, `seed${i}-b`];

  const open = async (slot: number, socket: Socket): Promise<void> => {
    const [a, b] = names(slot);
    const created = (await socket.emitWithAck('room:create', {
      game: GAME_IDS[slot % GAME_IDS.length],
      timeControl: setup.timeControl ?? { kind: 'none' },
      seats: { black: { kind: 'human' }, white: { kind: 'human' } },
      sit: { name: a, color: 'black' },
    })) as Ack<{ gameId: string; seat: { token: string } }>;
    if (!created.ok) throw new Error(`room:create: ${created.error.code} ${created.error.message}`);
    const joined = (await socket.emitWithAck('room:join', { gameId: created.gameId, name: b, color: 'white' })) as Ack<{ seat: { token: string }; view: GameView }>;
    if (!joined.ok) throw new Error(`room:join: ${joined.error.code} ${joined.error.message}`);
    const table = { id: created.gameId, socket, tokens: { black: created.seat.token, white: joined.seat.token }, view: joined.view, busy: false };
    const old = slots[slot];
    if (old) byId.delete(old.id);
    slots[slot] = table;
    byId.set(table.id, { table, slot });
  };

  let made = 0;
  await Promise.all(
    sockets.map(async (socket, s) => {
      for (let slot = s; slot < games; slot += sockets.length) {
        await open(slot, socket);
        if (++made % 100 === 0) progress?.(made);
      }
    }),
  );

  const play = async (table: Table): Promise<GameView | undefined> => {
    if (table.busy || table.view.status !== 'live') return undefined;
    table.busy = true;
    const { view } = table;
    const move = view.legal[Math.floor(Math.random() * view.legal.length)]!;
    try {
      const sent = performance.now();
      const ack = (await table.socket.timeout(10_000).emitWithAck('move', { gameId: table.id, token: table.tokens[view.toMove], ply: view.ply, move })) as Ack<MoveAck>;
      if (!ack.ok) {
        stats.errors++;
        return undefined;
      }
      setup.onAck?.(performance.now() - sent);
      stats.moves++;
      table.view = viewAfter(view, ack);
      if (table.view.status === 'finished') {
        stats.replaced++;
        const found = byId.get(table.id);
        if (found && !stopped) await open(found.slot, table.socket).catch(() => stats.errors++);
      }
      return table.view;
    } catch {
      stats.errors++;
      return undefined;
    } finally {
      table.busy = false;
    }
  };

  let stopped = false;
  let owed = 0;
  const timer = setInterval(() => {
    owed += (movesPerSecond * TICK_MS) / 1000;
    for (; owed >= 1; owed--) void play(slots[Math.floor(Math.random() * slots.length)]!);
  }, TICK_MS);

  return {
    ids: () => slots.map((t) => t.id),
    names,
    stats,
    moveNow: async (gameId) => {
      const found = byId.get(gameId);
      if (!found) return undefined;
      while (found.table.busy) await new Promise((r) => setTimeout(r, 5));
      return play(found.table);
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      for (const socket of sockets) socket.close();
    },
  };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: 'http://127.0.0.1:3000' },
      games: { type: 'string', default: '2000' },
      'moves-per-second': { type: 'string', default: '400' },
      minutes: { type: 'string', default: '10' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const number = (name: string, text: string | undefined, min: number): number => {
    const n = Number(text);
    if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number of at least ${min}, not "${text}". See --help.`);
    return n;
  };
  const games = number('games', values.games, 1);
  const rate = number('moves-per-second', values['moves-per-second'], 0);
  const minutes = number('minutes', values.minutes, 0);
  if (!(await fetch(`${values.url}/health`).catch(() => undefined))?.ok) {
    console.error(`No Boardroom server answers at ${values.url}: start one with npm start (or pass --url).`);
    return 2;
  }
  console.error(`making ${games} live games on ${values.url} …`);
  const seeded = await seedGames(values.url!, games, rate, (made) => process.stderr.write(`\r  ${made}/${games} games`));
  console.error(`\n${games} games live; ${rate} moves/s for ${minutes} min (Ctrl-C to stop)`);
  const end = Date.now() + minutes * 60_000;
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 5000));
    console.error(`  ${seeded.stats.moves} moves, ${seeded.stats.replaced} games replaced, ${seeded.stats.errors} errors`);
  }
  await seeded.stop();
  return seeded.stats.errors > 0 ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(2);
    },
  );
}
