import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attach, type AttachEvent } from '../bots/bridges/attach.js';
import { connectForAttach } from '../bots/bridges/attach-connection.js';
import { LineProcess } from '../bots/bridges/line-process.js';
import { fen, UciBridge, uciMoves } from '../bots/bridges/uci.js';
import type { MiniChessPosition } from '../shared/minichess/index.js';
import { minichessRules as rules } from '../shared/minichess/rules.js';
import type { Boardroom } from '../server/app.js';
import { ADMIN_TOKEN, startServer } from './support/server.js';

// Debian's Fairy-Stockfish plays our MiniChess from the variants file we ship: its move generation
// is held to ours at every node of the tree to depth 5, and it plays whole games through attach.
const ENGINE = process.env.FAIRY_STOCKFISH ?? ['/usr/games/fairy-stockfish', '/usr/bin/fairy-stockfish'].find((path) => existsSync(path)) ?? '';
const VARIANTS = fileURLToPath(new URL('../bots/bridges/variants.ini', import.meta.url));
const VARIANT = 'boardroom-minichess';

let engine: LineProcess;
beforeAll(async () => {
  if (!ENGINE) throw new Error('No fairy-stockfish: apt-get install -y fairy-stockfish (bash .ci/run does), or set FAIRY_STOCKFISH.');
  engine = new LineProcess(ENGINE, () => undefined);
  engine.send('uci');
  engine.send(`setoption name VariantPath value ${VARIANTS}`);
  engine.send(`setoption name UCI_Variant value ${VARIANT}`);
  engine.send('isready');
  expect(await engine.next((line) => (line === 'readyok' ? true : undefined), Date.now() + 10_000)).toBe(true);
});
afterAll(() => engine?.stop('quit'));

/** The engine's `go perft DEPTH` from a position: its root moves (UCI text), and the total. */
async function enginePerft(position: MiniChessPosition, depth: number): Promise<{ divide: string[]; total: number }> {
  engine.send(`position fen ${fen(rules.formatPosition(position))}`);
  engine.send(`go perft ${depth}`);
  const divide: string[] = [];
  const total = await engine.next((line) => {
    const split = /^([a-e][1-6][a-e][1-6]q?): \d+$/.exec(line);
    if (split) divide.push(split[1]!);
    const nodes = /^Nodes searched: (\d+)$/.exec(line);
    return nodes ? Number(nodes[1]) : undefined;
  }, Date.now() + 10_000);
  if (typeof total !== 'number') throw new Error(`go perft gave no count (${total})`);
  return { divide, total };
}

/** The engine's legal moves in a position are ours, a promotion written with its `q`. */
async function expectSameMoves(position: MiniChessPosition): Promise<void> {
  const text = rules.formatPosition(position);
  const ours = rules.legalMoves(position).map((m) => uciMoves(text, [rules.formatMove(m)])[0]!);
  expect((await enginePerft(position, 1)).divide.sort(), text).toEqual(ours.sort());
}

describe('Fairy-Stockfish with our variants.ini', () => {
  it.each([
    ['white pushes and takes to promote', 'k2nr/2P1P/5/5/3p1/4K w 21'],
    ['black pushes and takes to promote', 'k4/5/5/5/p1p2/1N2K b 30'],
    ['a promoted queen and kings in reach of each other', 'Q1k2/5/2K2/5/5/5 b 41'],
  ])('generates our moves where %s', async (_what, position) => {
    const parsed = rules.parsePosition(position);
    if (!parsed.ok) throw new Error(parsed.error.message);
    await expectSameMoves(parsed.value);
  });

  it('hears our moves with a promotion written as UCI writes it', () => {
    expect(uciMoves('k4/4P/5/5/p4/4K w 1', ['e5e6', 'a2a1', 'e6e5'])).toEqual(['e5e6q', 'a2a1q', 'e6e5']);
    expect(uciMoves('kqbnr/ppppp/5/5/PPPPP/RNBQK w 1', ['b2b3', 'a5a4'])).toEqual(['b2b3', 'a5a4']);
  });

  it('generates exactly our moves at every node to depth 5, and its perft 5 is ours once king captures are counted our way', async () => {
    // Our rules end the game where the side to move can take the king: one leaf. The engine's
    // perft goes on through such positions (the king is an ordinary piece that can be taken), so
    // its root total is ours with each of those leaves replaced by the engine's count below it.
    const DEPTH = 5;
    let leaves = 0;
    let kingCaptureLeaves = 0;
    let engineTotal = 0;
    let compared = 0;
    let frontier = [rules.start()];
    for (let depth = 0; depth < DEPTH; depth++) {
      const next: MiniChessPosition[] = [];
      for (const position of frontier) {
        const outcome = rules.outcome(position);
        if (outcome) {
          leaves++;
          if (outcome.reason === 'king-capture') {
            kingCaptureLeaves++;
            engineTotal += (await enginePerft(position, DEPTH - depth)).total;
          } else engineTotal++;
          continue;
        }
        const ours = rules.legalMoves(position);
        await expectSameMoves(position);
        compared++;
        for (const move of ours) next.push(rules.play(position, move));
      }
      frontier = next;
    }
    leaves += frontier.length;
    engineTotal += frontier.length;
    kingCaptureLeaves += frontier.filter((p) => rules.outcome(p)?.reason === 'king-capture').length;
    // docs/rules.md §Perft: 46 406 leaves at depth 5, 893 of them king captures.
    expect(leaves).toBe(46_406);
    expect(kingCaptureLeaves).toBe(893);
    expect(compared).toBeGreaterThan(4_000);
    expect((await enginePerft(rules.start(), DEPTH)).total).toBe(engineTotal);
  }, 120_000);
});

describe('attach --uci fairy-stockfish', () => {
  let server: Boardroom;
  beforeAll(async () => {
    server = await startServer({});
  });
  afterAll(() => server?.close());

  it('plays whole MiniChess games against engine-1 with no illegal move and no loss on time', async () => {
    const res = await fetch(`${server.url}/admin/api/agents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ name: 'fairy' }),
    });
    const { token } = (await res.json()) as { token: string };
    const connection = await connectForAttach(server.url, token);
    const events: AttachEvent[] = [];
    await attach(connection, {
      game: 'minichess',
      games: 2,
      play: 'open',
      vs: 'engine-1',
      moveMs: 1000,
      rounds: 2,
      newBridge: () => new UciBridge({ command: ENGINE, log: () => undefined }, { variant: VARIANT, variantsFile: VARIANTS }),
      report: (event) => events.push(event),
    });
    await connection.close();
    const ended = events.filter((e): e is Extract<AttachEvent, { event: 'ended' }> => e.event === 'ended');
    expect(ended).toHaveLength(2);
    expect(events.filter((e) => e.event === 'problem'), JSON.stringify(events)).toEqual([]);
    for (const end of ended) expect(['king-capture', 'step-limit', 'no-moves']).toContain(end.result.reason);
  }, 120_000);
});
