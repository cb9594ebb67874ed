import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The yardstick (`yardstick.ts`) as a process of its own, started with node's `nodeArgs`; on
 * `redisUrl`, doing the least Redis work a move needs. Resolves once it serves.
 */
export async function spawnYardstick(nodeArgs: readonly string[], redisUrl?: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', fileURLToPath(new URL('./yardstick.ts', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...(redisUrl ? { YARDSTICK_REDIS: redisUrl } : {}) },
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const found = /localhost:(\d+)/.exec(out);
      if (found) resolve(Number(found[1]));
    });
    child.once('exit', (code: number | null) => reject(new Error(`the yardstick exited with ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}
