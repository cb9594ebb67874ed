import { renameSync, writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { seededRandom } from '../../../shared/random.js';
import { TranspositionTable } from '../../engine/table.js';
import { trainingGame } from './selfplay.js';

export interface ChunkTask {
  readonly chunk: number;
  readonly games: number;
  readonly seed: number;
  readonly file: string;
}

/** Plays one chunk of training games and writes it whole (to a temporary name first, so a stopped run leaves no half chunk). */
parentPort!.on('message', (task: ChunkTask) => {
  const random = seededRandom(task.seed);
  const table = new TranspositionTable(16);
  const games: Int32Array[] = [];
  for (let g = 0; g < task.games; g++) {
    games.push(trainingGame(random, undefined, table));
    parentPort!.postMessage({ game: true });
  }
  const data = new Int32Array(games.reduce((n, g) => n + g.length, 0));
  let at = 0;
  for (const g of games) {
    data.set(g, at);
    at += g.length;
  }
  writeFileSync(`${task.file}.part`, Buffer.from(data.buffer));
  renameSync(`${task.file}.part`, task.file);
  parentPort!.postMessage({ chunk: task.chunk });
});
