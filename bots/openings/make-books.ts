import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { GAMES, type Game, type Position } from '../../shared/games.js';
import { seededRandom } from '../../shared/random.js';
import { GAME_IDS, type GameId } from '../../shared/rules.js';
import { BOOK_PLIES, bookPath } from '../arena/openings.js';
import { WIN_THRESHOLD } from '../engine/game.js';
import { search } from '../engine/search.js';
import { searchBoardOf } from '../search-boards.js';

/**
 * Makes the opening books the arena and the SPRT play: random openings of a few plies (Gomoku's
 * stones near the centre), each judged by a fixed-size search of our engine, the closest to
 * even kept. A fixed node count rather than a time keeps the books the same on any machine.
 */
interface BookSettings {
  /** Plies of an opening, drawn uniformly from this range. */
  readonly plies: readonly [number, number];
  readonly candidates: number;
  readonly keep: number;
  /** Nodes of the judging search. */
  readonly nodes: number;
  /** Gomoku: stones at most this far from the centre point, in each direction. */
  readonly radius?: number;
}

export const BOOK_SETTINGS: Record<GameId, BookSettings> = {
  othello: { plies: BOOK_PLIES.othello, candidates: 1000, keep: 300, nodes: 100_000 },
  gomoku: { plies: BOOK_PLIES.gomoku, candidates: 1000, keep: 300, nodes: 50_000, radius: 2 },
  minichess: { plies: BOOK_PLIES.minichess, candidates: 800, keep: 200, nodes: 100_000 },
};

function candidate(game: Game, settings: BookSettings, random: () => number): { moves: number[]; position: Position } | undefined {
  const [low, high] = settings.plies;
  const plies = low + Math.floor(random() * (high - low + 1));
  let position = game.rules.start();
  const moves: number[] = [];
  for (let i = 0; i < plies; i++) {
    let legal = game.rules.legalMoves(position);
    const r = settings.radius;
    if (r !== undefined) legal = legal.filter((p) => Math.abs((p % 15) - 7) <= r && Math.abs(Math.floor(p / 15) - 7) <= r);
    if (legal.length === 0) return undefined;
    const move = legal[Math.floor(random() * legal.length)]!;
    moves.push(move);
    position = game.rules.play(position, move);
    if (game.rules.outcome(position)) return undefined;
  }
  return { moves, position };
}

function makeBook(game: Game, settings: BookSettings, seed: number, onProgress: (done: number) => void): string {
  const random = seededRandom(seed);
  const seen = new Set<string>();
  const judged: { line: string; score: number }[] = [];
  for (let tries = 0; judged.length < settings.candidates && tries < settings.candidates * 20; tries++) {
    const c = candidate(game, settings, random);
    if (!c) continue;
    const key = game.rules.formatPosition(c.position);
    if (seen.has(key)) continue;
    seen.add(key);
    const { score } = search(searchBoardOf(game.id, c.position), { nodeLimit: settings.nodes });
    if (Math.abs(score) >= WIN_THRESHOLD) continue;
    // The score is the side to move's; the book keeps the first mover's view.
    const firstMoverScore = game.rules.toMove(c.position) === game.rules.toMove(game.rules.start()) ? score : -score;
    judged.push({ line: c.moves.map((m) => game.rules.formatMove(m)).join(' '), score: firstMoverScore });
    onProgress(judged.length);
  }
  judged.sort((x, y) => Math.abs(x.score) - Math.abs(y.score));
  const kept = judged.slice(0, settings.keep);
  const worst = Math.abs(kept[kept.length - 1]?.score ?? 0);
  const header = [
    `# ${game.id} opening book: ${kept.length} openings of ${settings.plies[0]}–${settings.plies[1]} plies${settings.radius !== undefined ? `, stones within ${settings.radius} of the centre` : ''},`,
    `# the ${kept.length} closest to even of ${judged.length} random ones judged by a ${settings.nodes}-node search (|score| ≤ ${worst}).`,
    `# Made by npm run books -- --game ${game.id} --seed ${seed}; the first mover's score follows each line.`,
  ];
  return [...header, ...kept.map((k) => `${k.line} # ${k.score}`)].join('\n') + '\n';
}

function main(): number {
  const { values } = parseArgs({ options: { game: { type: 'string' }, seed: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    process.stdout.write(`Usage: npm run books -- [--game G] [--seed N]\n\nWrites bots/openings/<game>.txt for each game (or G only): ${JSON.stringify(BOOK_SETTINGS)}\n`);
    return 0;
  }
  const games = values.game ? [values.game as GameId] : GAME_IDS;
  for (const id of games) {
    if (!GAMES[id]) {
      process.stderr.write(`"${id}" is not a game: ${GAME_IDS.join(', ')}\n`);
      return 2;
    }
    const settings = BOOK_SETTINGS[id];
    const book = makeBook(GAMES[id], settings, Number(values.seed ?? 1), (done) => {
      if (done % 20 === 0) process.stderr.write(`\r${id}: ${done}/${settings.candidates} judged`);
    });
    writeFileSync(bookPath(id), book);
    process.stderr.write(`\n${id}: wrote ${bookPath(id)}\n`);
  }
  return 0;
}

process.exit(main());
