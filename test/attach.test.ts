import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attach, type AttachEvent } from '../bots/bridges/attach.js';
import { connectForAttach } from '../bots/bridges/attach-connection.js';
import type { EngineBridge } from '../bots/bridges/engine.js';
import { FileProtocolBridge } from '../bots/bridges/file-protocol.js';
import { ggf, NboardBridge } from '../bots/bridges/nboard.js';
import { fen, UciBridge } from '../bots/bridges/uci.js';
import { PiskvorkBridge } from '../bots/bridges/piskvork.js';
import type { GameId } from '../shared/rules.js';
import type { Boardroom } from '../server/app.js';
import { ADMIN_TOKEN, startServer } from './support/server.js';
import { turnAfter } from './fixtures/engines/engine-turns.js';

// `boardroom attach` with a piskvork engine of ours that plays well enough, crashes, answers
// late, illegally or nonsense: every game ends, none by a crash of the bridge, and a
// misbehaving engine gets what a person's missing move would get.
const ENGINE = fileURLToPath(new URL('./fixtures/engines/piskvork-engine.mjs', import.meta.url));
const FILE_ENGINE = fileURLToPath(new URL('./fixtures/engines/file-engine.mjs', import.meta.url));
const NBOARD_ENGINE = fileURLToPath(new URL('./fixtures/engines/nboard-engine.mjs', import.meta.url));
const UCI_ENGINE = fileURLToPath(new URL('./fixtures/engines/uci-engine.mjs', import.meta.url));
const BIN = fileURLToPath(new URL('../bin/boardroom.js', import.meta.url));
let server: Boardroom;
beforeAll(async () => {
  server = await startServer({});
});
afterAll(() => server?.close());

let count = 0;
async function token(name = `pisk-${++count}`): Promise<string> {
  const res = await fetch(`${server.url}/admin/api/agents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ name }),
  });
  return ((await res.json()) as { token: string }).token;
}

async function play(mode: string, rounds: number, moveMs = 2000, game: GameId = 'gomoku', newBridge?: () => EngineBridge): Promise<AttachEvent[]> {
  const connection = await connectForAttach(server.url, await token());
  const events: AttachEvent[] = [];
  await attach(connection, {
    game,
    games: 2,
    play: 'open',
    vs: 'engine-1',
    moveMs,
    rounds,
    newBridge: newBridge ?? (() => new PiskvorkBridge({ command: `MODE=${mode} ${process.execPath} ${ENGINE}`, log: () => undefined })),
    report: (event) => events.push(event),
  });
  await connection.close();
  return events;
}

const endings = (events: AttachEvent[]) => events.filter((e): e is Extract<AttachEvent, { event: 'ended' }> => e.event === 'ended');
const problems = (events: AttachEvent[]) => events.filter((e): e is Extract<AttachEvent, { event: 'problem' }> => e.event === 'problem').map((e) => e.message);

describe('attach with a piskvork engine', () => {
  it('plays whole games against engine-1, two at once, with no problem', async () => {
    const events = await play('', 2);
    expect(events.filter((e) => e.event === 'started')).toHaveLength(2);
    expect(endings(events).map((e) => e.result.reason).every((r) => r === 'five' || r === 'board-full')).toBe(true);
    expect(problems(events)).toEqual([]);
  });

  it('an engine that crashes mid-game is started again, told the board, and the game goes on to its end', async () => {
    const logged: string[] = [];
    const bridge = new PiskvorkBridge({ command: `MODE=crash-at=3 ${process.execPath} ${ENGINE}`, log: (line) => logged.push(line) });
    const events = await play('crash-at=3', 1);
    expect(problems(events)).toEqual([]);
    expect(endings(events)[0]!.result.reason).toMatch(/five|board-full/);
    // The same, watched from the bridge: the 4th move is asked of a new process, told by BOARD.
    const start = { gameId: 'g', game: 'gomoku' as const, options: {}, start: '', color: 'black' as const, clock: { control: { kind: 'none' as const }, black: null, white: null, running: null, at: 0 }, deadline: null };
    const moves: string[] = [];
    const legal = (): string[] => Array.from({ length: 225 }, (_, i) => `${'abcdefghijklmno'[i % 15]}${Math.floor(i / 15) + 1}`).filter((m) => !moves.includes(m));
    for (let i = 0; i < 4; i++) {
      moves.push(await bridge.think({ ...start, moves: [...moves], position: '', legal: legal() }, new AbortController().signal));
      moves.push(legal()[0]!); // the opponent's answer
    }
    expect(logged.some((l) => l.includes('crashed at move 6'))).toBe(true);
    expect(new Set(moves).size).toBe(8);
    await bridge.close();
  });

  // The first round is played as black (colours alternate from black): an engine that plays an
  // occupied point has a legal first move on the empty board, so it misses a later move.
  it.each([
    ['late', 'silent', 'aborted'],
    ['illegal', 'illegal', 'timeout'],
    ['garbage', 'garbage', 'aborted'],
  ])('an engine that answers %s makes no move (%s): its game ends by %s, as a person’s would', async (mode, kind, reason) => {
    const events = await play(mode, 1, 1000);
    expect(problems(events).some((m) => m.includes(kind))).toBe(true);
    const [ended] = endings(events);
    expect(ended!.color).toBe('black');
    expect(ended!.result.reason).toBe(reason);
  });

  it('the command line: --help, bad usage, and a whole game with --json', async () => {
    const run = promisify(execFile);
    expect((await run(process.execPath, [BIN, 'attach', '--help'])).stdout).toContain('--piskvork CMD');
    await expect(run(process.execPath, [BIN, 'attach', '--server', server.url, '--token', 'x', '--game', 'othello', '--piskvork', 'x'])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('plays gomoku, not othello') });
    const { stdout } = await run(process.execPath, [BIN, 'attach', '--server', server.url, '--token', await token(), '--game', 'gomoku', '--piskvork', `${process.execPath} ${ENGINE}`, '--vs', 'engine-1', '--rounds', '1', '--json'], { timeout: 60_000 });
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as AttachEvent);
    expect(lines[0]).toMatchObject({ event: 'started', opponent: 'engine-1' });
    expect(lines.at(-1)).toMatchObject({ event: 'ended', result: { reason: expect.stringMatching(/five|board-full/) } });
  });
});

describe('attach with a program of the file protocol', () => {
  const fileBridge = (mode: string) => () => new FileProtocolBridge({ command: `MODE=${mode} ${process.execPath} ${FILE_ENGINE}`, log: () => undefined });

  it.each(['othello', 'gomoku', 'minichess'] as const)('plays a whole %s game against engine-1, its anytime answers read to the last', async (game) => {
    const events = await play('anytime', 1, 2000, game, fileBridge('anytime'));
    expect(problems(events)).toEqual([]);
    expect(endings(events)[0]!.result.reason).not.toMatch(/timeout|abandonment/);
  });

  it.each([
    ['silent', 'silent'],
    ['garbage', 'garbage'],
    ['illegal', 'illegal'],
    ['crash', 'crashed'],
  ])('a program that is %s makes no move: its first move missed, the game is aborted', async (mode, kind) => {
    const events = await play(mode, 1, 1000, 'othello', fileBridge(mode));
    expect(problems(events).some((m) => m.includes(kind))).toBe(true);
    expect(endings(events)[0]!.result.reason).toBe('aborted');
  });
});

describe('attach with an NBoard engine', () => {
  const logged: string[] = [];
  const nboard = (mode: string) => () => new NboardBridge({ command: `MODE=${mode} ${process.execPath} ${NBOARD_ENGINE}`, log: (line) => logged.push(line) });

  it('plays whole Othello games against engine-1, and goes on after a crash', async () => {
    for (const mode of ['', 'crash-at=5']) {
      const events = await play(mode, 2, 2000, 'othello', nboard(mode));
      expect(problems(events)).toEqual([]);
      expect(endings(events).map((e) => e.result.reason).every((r) => r === 'no-moves' || r === 'board-full')).toBe(true);
    }
    expect(logged.some((line) => line.includes('crashed at move'))).toBe(true);
  });

  it('tells the game as GGF, passes as PA', () => {
    const turn = { start: '---------------------------OX------XO--------------------------- X', moves: ['f5', 'd6', 'pass'] } as Parameters<typeof ggf>[0];
    expect(ggf(turn)).toBe('(;GM[Othello]PC[Boardroom]PB[black]PW[white]RE[?]TI[0//0]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6]B[PA];)');
  });

  it.each([
    ['late', 'silent'],
    ['illegal', 'illegal'],
    ['garbage', 'garbage'],
  ])('an engine that answers %s makes no move: its first move missed, the game is aborted', async (mode, kind) => {
    const events = await play(mode, 1, 1000, 'othello', nboard(mode));
    expect(problems(events).some((m) => m.includes(kind))).toBe(true);
    expect(endings(events)[0]!.result.reason).toBe('aborted');
  });
});

describe('attach with a UCI engine', () => {
  const logged: string[] = [];
  const uci = (mode: string) => () => new UciBridge({ command: `MODE=${mode} ${process.execPath} ${UCI_ENGINE}`, log: (line) => logged.push(line) });

  it('plays whole MiniChess games against engine-1, and goes on after a crash', async () => {
    for (const mode of ['', 'crash-at=4']) {
      const events = await play(mode, 2, 2000, 'minichess', uci(mode));
      expect(problems(events)).toEqual([]);
      expect(endings(events).map((e) => e.result.reason).every((r) => r === 'king-capture' || r === 'step-limit' || r === 'no-moves')).toBe(true);
    }
    expect(logged.some((line) => line.includes('crashed at move'))).toBe(true);
  });

  it('an engine slower to start than the move clock plays its first move: it is started before the challenge', async () => {
    // A 1 s clock and 1.5 s to start: started at the game's first turn, white's first move is lost.
    const events = await play('slow-start=1500', 2, 1000, 'minichess', uci('slow-start=1500'));
    expect(problems(events)).toEqual([]);
    expect(endings(events).map((e) => e.plies).every((plies) => plies > 1)).toBe(true);
  });

  it('reads a promotion written the UCI way (c5d6q) as our move', async () => {
    const bridge = new UciBridge({ command: `MODE=promote ${process.execPath} ${UCI_ENGINE}`, log: () => undefined });
    const turn = turnAfter('minichess', [], { start: 'k2nr/2P1P/5/5/3p1/4K w 21' });
    const move = await bridge.think(turn, new AbortController().signal);
    await bridge.close();
    expect(['c5c6', 'c5d6', 'e5d6']).toContain(move);
    expect(turn.legal).toContain(move);
  });

  it('tells the position as a FEN with no castling or en passant', () => {
    expect(fen('kqbnr/ppppp/5/5/PPPPP/RNBQK w 1')).toBe('kqbnr/ppppp/5/5/PPPPP/RNBQK w - - 0 1');
    expect(fen('kqbnr/pppp1/4p/5/PPPPP/RNBQK w 3')).toBe('kqbnr/pppp1/4p/5/PPPPP/RNBQK w - - 0 2');
  });

  it.each([
    ['late', 'silent'],
    ['illegal', 'illegal'],
    ['garbage', 'garbage'],
  ])('an engine that answers %s makes no move: its first move missed, the game is aborted', async (mode, kind) => {
    const events = await play(mode, 1, 1000, 'minichess', uci(mode));
    expect(problems(events).some((m) => m.includes(kind))).toBe(true);
    expect(endings(events)[0]!.result.reason).toBe('aborted');
  });
});

describe('attach checks its engine and reports what a bot author needs', () => {
  const run = promisify(execFile);
  /** Runs `boardroom attach` as a new agent: its exit code, output lines, and the rooms it sat in. */
  async function attachCli(engine: string[], ...rest: string[]): Promise<{ code: number; stdout: string; stderr: string; rooms: unknown[] }> {
    const name = `author-${++count}`;
    const args = [BIN, 'attach', '--server', server.url, '--token', await token(name), ...engine, ...rest];
    const outcome = await run(process.execPath, args, { timeout: 90_000 }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );
    const { rooms } = (await (await fetch(`${server.url}/api/rooms?status=all`)).json()) as { rooms: { seats: { black: { name: string | null }; white: { name: string | null } } }[] };
    return { ...outcome, rooms: rooms.filter((r) => r.seats.black.name === name || r.seats.white.name === name) };
  }
  const jsonLines = (stdout: string): any[] => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));

  it.each([
    ['a UCI command that does not exist', ['--game', 'minichess', '--uci', '/nonexistent/engine'], /did not start: the engine was sent uci and exited/],
    ['a UCI engine that never says uciok', ['--game', 'minichess', '--uci', `MODE=mute ${process.execPath} ${UCI_ENGINE}`], /did not start: the engine was sent uci and gave no uciok/],
    ['a piskvork engine that refuses START', ['--game', 'gomoku', '--piskvork', `${process.execPath} -e "process.stdin.on('data', () => console.log('ERROR no'))"`], /START 15/],
    ['an NBoard engine that never answers ping', ['--game', 'othello', '--nboard', `${process.execPath} -e "process.stdin.resume()"`], /the engine was sent ping 1 and gave no pong 1/],
    ['a file-protocol program that does not exist', ['--game', 'othello', '--file', '/nonexistent/program'], /\/nonexistent\/program/],
  ])('%s: exits 1 with a clear message before taking any seat', async (_what, engine, message) => {
    const { code, stderr, rooms } = await attachCli(engine, '--vs', 'engine-1', '--rounds', '1');
    expect(code).toBe(1);
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/attached to/);
    expect(rooms).toEqual([]);
  }, 30_000);

  it('an engine that dies three times in a row stops the attach, with a clear message', async () => {
    const { code, stdout, stderr } = await attachCli(['--game', 'gomoku', '--piskvork', `MODE=crash-at=0 ${process.execPath} ${ENGINE}`], '--vs', 'engine-1', '--move-ms', '1000', '--rounds', '6', '--json');
    expect(code).toBe(1);
    expect(stderr).toMatch(/engine died 3 times in a row/);
    expect(jsonLines(stdout).filter((e) => e.event === 'started').length).toBeLessThan(6);
  }, 60_000);

  it('--vs with --rounds alternates colours; --json tells each end for us, the plies, a crash and its restart; MESSAGE stays off stderr', async () => {
    const { code, stdout, stderr } = await attachCli(['--game', 'gomoku', '--piskvork', `MODE=crash-at=3 ${process.execPath} ${ENGINE}`], '--vs', 'engine-1', '--move-ms', '2000', '--rounds', '4', '--json');
    expect(code).toBe(0);
    const events = jsonLines(stdout);
    expect(events.filter((e) => e.event === 'started').map((e) => e.color)).toEqual(['black', 'white', 'black', 'white']);
    const ended = events.filter((e) => e.event === 'ended');
    expect(ended).toHaveLength(4);
    for (const e of ended) {
      expect(e.outcome).toBe(e.result.winner === null ? 'drawn' : e.result.winner === e.color ? 'won' : 'lost');
      expect(e.plies).toBeGreaterThanOrEqual(9);
    }
    expect(events.some((e) => e.event === 'restarted' && typeof e.gameId === 'string' && e.message.includes('crashed'))).toBe(true);
    expect(stderr).not.toContain('MESSAGE');
  }, 90_000);

  it('--help gives --move-ms a practical default and its range', async () => {
    const { stdout } = await run(process.execPath, [BIN, 'attach', '--help']);
    expect(stdout).toMatch(/--move-ms MS .*default 5000/);
    expect(stdout).toMatch(/1000 to 3600000/);
  });
});
