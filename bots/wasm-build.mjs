// Compiles the engines' WebAssembly cores (AssemblyScript, each `<game>/wasm/assembly/index.ts`)
// to dist/bots/<game>/*.wasm: `npm run build:wasm`, the first step of `npm run build`.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const CORES = [
  { name: 'the Othello WebAssembly core', source: './othello/wasm/assembly/index.ts', output: '../dist/bots/othello/core.wasm' },
  { name: "Gomoku's WebAssembly line patterns", source: './gomoku/wasm/assembly/index.ts', output: '../dist/bots/gomoku/lines.wasm' },
];

let asc;
try {
  asc = (await import('assemblyscript/asc')).default;
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  console.error('Cannot build the WebAssembly cores: the AssemblyScript compiler, npm package "assemblyscript", is not installed (it is a devDependency: run `npm ci`).');
  process.exit(1);
}

for (const { name, source, output } of CORES) {
  const entry = fileURLToPath(new URL(source, import.meta.url));
  const outFile = fileURLToPath(new URL(output, import.meta.url));
  mkdirSync(dirname(outFile), { recursive: true });
  // No garbage collector: the cores keep their state in tables made at start and in locals.
  const { error } = await asc.main([entry, '--outFile', outFile, '-O3', '--runtime', 'stub', '--noAssert', '--use', 'abort=', '--enable', 'simd']);
  if (error) {
    console.error(`Cannot build ${name}: ${error.message}`);
    process.exit(1);
  }
}
