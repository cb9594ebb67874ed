// Compiles the Othello core (assembly/, AssemblyScript) to dist/bots/othello/core.wasm: `npm run build:wasm`.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('./assembly/index.ts', import.meta.url));
const outFile = fileURLToPath(new URL('../../../dist/bots/othello/core.wasm', import.meta.url));

let asc;
try {
  asc = (await import('assemblyscript/asc')).default;
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  console.error('Cannot build the Othello WebAssembly core: the AssemblyScript compiler, npm package "assemblyscript", is not installed (it is a devDependency: run `npm ci`).');
  process.exit(1);
}

mkdirSync(dirname(outFile), { recursive: true });
// No garbage collector: the core keeps its boards in locals and one table made at start.
const { error } = await asc.main([entry, '--outFile', outFile, '-O3', '--runtime', 'stub', '--noAssert', '--use', 'abort=', '--enable', 'simd']);
if (error) {
  console.error(`Cannot build the Othello WebAssembly core: ${error.message}`);
  process.exit(1);
}
