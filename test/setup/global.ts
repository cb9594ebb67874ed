import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Before any test: the programs the tests run beside Node are there, installed from Debian's
 * packages if they were missing (system-packages.sh), so `npm install && npm test` is all a
 * fresh Debian machine needs.
 */
export default function setup(): void {
  const script = fileURLToPath(new URL('./system-packages.sh', import.meta.url));
  const run = spawnSync('bash', [script], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (run.status !== 0) throw new Error(`The tests' system packages are missing (${script} said why above).`);
}
