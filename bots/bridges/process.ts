import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

const running = new Set<ChildProcessWithoutNullStreams>();
let stoppedWithUs = false;

/**
 * Starts an author's command line under a shell, in a process group of its own. Killing the
 * shell alone would leave the engine it started running (dash does not exec the last command), so
 * `stopProgram` kills the group; groups still running when we exit are killed with us.
 */
export function startProgram(command: string): ChildProcessWithoutNullStreams {
  if (!stoppedWithUs) process.once('exit', stopAllPrograms);
  stoppedWithUs = true;
  const child = spawn(command, { shell: true, detached: true, stdio: 'pipe' });
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.once('error', () => running.delete(child));
  return child;
}

export function stopProgram(child: ChildProcessWithoutNullStreams): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    child.kill('SIGKILL'); // no group: it never started, or has gone
  }
}

function stopAllPrograms(): void {
  for (const child of running) stopProgram(child);
}
