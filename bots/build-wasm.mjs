// Compiles each game's WebAssembly core (bots/<game>/wasm/assembly/, AssemblyScript) to
// dist/bots/<game>/core.wasm: `npm run build:wasm`.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const CORES = ['othello', 'minichess'];

let asc;
try {
  asc = (await import('assemblyscript/asc')).default;
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  console.error('Cannot build the WebAssembly cores: the AssemblyScript compiler, npm package "assemblyscript", is not installed (it is a devDependency: run `npm ci`).');
  process.exit(1);
}

for (const game of CORES) {
  const entry = fileURLToPath(new URL(`./${game}/wasm/assembly/index.ts`, import.meta.url));
  const outFile = fileURLToPath(new URL(`../dist/bots/${game}/core.wasm`, import.meta.url));
  mkdirSync(dirname(outFile), { recursive: true });
  // No garbage collector: a core keeps its state in locals and static tables made at start.
  const { error } = await asc.main([entry, '--outFile', outFile, '-O3', '--runtime', 'stub', '--noAssert', '--use', 'abort=', '--enable', 'simd']);
  if (error) {
    console.error(`Cannot build the ${game} WebAssembly core: ${error.message}`);
    process.exit(1);
  }
}
