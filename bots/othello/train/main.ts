import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { numberArg } from '../../tool-io.js';
import { runOnWorkers } from '../../threads.js';
import { encodeWeights, WEIGHTS_FILE } from '../learned-eval.js';
import { FIT, fitWeights } from './fit.js';
import { RECORD_INTS, SELF_PLAY } from './selfplay.js';
import type { ChunkTask } from './selfplay-worker.js';

const CHUNK = 250;
const TEST_EVERY = 20;

const HELP = `Usage: npm run train:othello -- [--games N] [--threads N] [--data DIR] [--out FILE]
                                [--seed N] [--iterations N] [--ridge X] [--backup-depth N]
                                [--backup-share X] [--backup-positions N] [--fit-only]

Reproduces the learned Othello evaluation from nothing: plays training games (random openings,
depth-${SELF_PLAY.depth} self-play, exact solving from ${SELF_PLAY.exactEmpties} empties), keeps every position with the
game's final margin, and fits one weight set per stage by ridge least squares, from the last
stage back: each stage's positions are labelled by a short search into the stage after it.

Games are played in chunks of ${CHUNK} written to --data; a stopped run resumes where it stopped
(chunks already there are kept), and a larger --games adds chunks. One chunk in 20 is held out
to measure the fit's error on games it has not seen.

  --games N        training games in all (default 25000)
  --threads N      games played at once (default ${availableParallelism()}, one per core)
  --data DIR       where the games are kept (default .cache/othello-training)
  --out FILE       the weights file written (default bots/othello/weights.bin.gz, which the engine loads)
  --seed N         seed of the first chunk (default 1)
  --iterations N   conjugate-gradient iterations per stage (default ${FIT.iterations})
  --ridge X        ridge penalty (default ${FIT.ridge})
  --backup-depth N  label each stage by an N-ply search into the next, already fitted, stage,
                   fitting from the last stage back (default ${FIT.backupDepth}; 0: final margins only)
  --backup-share X the backed-up value's share of a label, the final margin the rest (default ${FIT.backupShare})
  --backup-positions N  positions searched and fitted per stage when backing up (default ${FIT.backupPositions})
  --fit-only       fit the games already there, play none`;

function chunkFile(dir: string, chunk: number): string {
  return join(dir, `chunk-${String(chunk).padStart(5, '0')}.bin`);
}

async function play(dir: string, chunks: number, seed: number, threads: number): Promise<void> {
  const missing = Array.from({ length: chunks }, (_, c) => c).filter((c) => !existsSync(chunkFile(dir, c)));
  if (missing.length === 0) return;
  const total = missing.length * CHUNK;
  const started = Date.now();
  let games = 0;
  const show = (): void => {
    const rate = games / Math.max(1, (Date.now() - started) / 1000);
    const eta = rate > 0 ? Math.round((total - games) / rate / 60) : 0;
    process.stderr.write(`\rplaying: ${games}/${total} games, ${rate.toFixed(1)} games/s, about ${eta} min left   `);
  };
  const tasks = missing.map((chunk): ChunkTask => ({ chunk, games: CHUNK, seed: seed + chunk, file: chunkFile(dir, chunk) }));
  try {
    await runOnWorkers(
      import.meta.url,
      'selfplay-worker',
      tasks,
      threads,
      (message: { game?: true; chunk?: number }) => {
        if (message.game && ++games % 10 === 0) show();
      },
      (message) => message.chunk !== undefined,
    );
  } finally {
    process.stderr.write('\n');
  }
}

function load(dir: string): { train: Int32Array; test: Int32Array; games: number } {
  const train: Buffer[] = [];
  const test: Buffer[] = [];
  const files = readdirSync(dir).filter((f) => /^chunk-\d+\.bin$/.test(f));
  for (const f of files) (Number(f.slice(6, 11)) % TEST_EVERY === 0 ? test : train).push(readFileSync(join(dir, f)));
  const ints = (parts: Buffer[]): Int32Array => {
    const all = Buffer.concat(parts);
    return new Int32Array(all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength));
  };
  return { train: ints(train), test: ints(test), games: files.length * CHUNK };
}

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        games: { type: 'string' },
        threads: { type: 'string' },
        data: { type: 'string' },
        out: { type: 'string' },
        seed: { type: 'string' },
        iterations: { type: 'string' },
        ridge: { type: 'string' },
        'backup-depth': { type: 'string' },
        'backup-share': { type: 'string' },
        'backup-positions': { type: 'string' },
        'fit-only': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    process.stderr.write(`train:othello: ${(error as Error).message}\n${HELP}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  const games = numberArg('--games', values.games, 25_000, 1);
  const threads = numberArg('--threads', values.threads, availableParallelism(), 1);
  const seed = numberArg('--seed', values.seed, 1, 0);
  const settings = {
    iterations: numberArg('--iterations', values.iterations, FIT.iterations, 1),
    ridge: numberArg('--ridge', values.ridge, FIT.ridge, 0),
    backupDepth: numberArg('--backup-depth', values['backup-depth'], FIT.backupDepth, 0),
    backupShare: numberArg('--backup-share', values['backup-share'], FIT.backupShare, 0),
    backupPositions: numberArg('--backup-positions', values['backup-positions'], FIT.backupPositions, 100),
  };
  const dir = values.data ?? '.cache/othello-training';
  const out = values.out ?? WEIGHTS_FILE;
  mkdirSync(dir, { recursive: true });

  if (!values['fit-only']) await play(dir, Math.ceil(games / CHUNK), seed, threads);
  const { train, test, games: played } = load(dir);
  process.stderr.write(`fitting ${train.length / RECORD_INTS} positions (${test.length / RECORD_INTS} held out) from ${played} games\n`);
  process.stdout.write('| stage | discs | positions | train RMSE | held-out RMSE |\n|---|---|---|---|---|\n');
  const { weights } = fitWeights(train, test, settings, (f) => {
    const discs = `${4 + 4 * f.stage}–${f.stage === 14 ? 64 : 7 + 4 * f.stage}`;
    process.stdout.write(`| ${f.stage} | ${discs} | ${f.trainPositions} | ${f.trainRmse.toFixed(2)} | ${f.testRmse.toFixed(2)} |\n`);
  });
  writeFileSync(out, encodeWeights(weights));
  process.stderr.write(`wrote ${out}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`train:othello: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
