import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../../bin/boardroom.js', import.meta.url));

/** Runs the installed command (the built code in dist/) and returns its exit code and output. */
export async function boardroom(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The last line of the output, read as JSON (the commands' `--json`). */
export const lastJson = (stdout: string): unknown => JSON.parse(stdout.trim().split('\n').at(-1)!);
