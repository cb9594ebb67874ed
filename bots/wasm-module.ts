import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The part of the WebAssembly API used here: this project's `lib` (ES2022, no DOM) does not declare it. */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
};

/** Where `npm run build` writes a game's core (`bots/build-wasm.mjs`); the tests, run from the sources, read the built one. */
export function coreFile(game: 'othello' | 'minichess'): string {
  return fileURLToPath(new URL(import.meta.url.includes('/dist/bots/') ? `./${game}/core.wasm` : `../dist/bots/${game}/core.wasm`, import.meta.url));
}

/** A game's core, compiled and instantiated synchronously: it is small, and its first user is waiting for it. */
export function instantiateCore<Exports>(game: 'othello' | 'minichess', imports: object = {}): Exports {
  const file = coreFile(game);
  if (!existsSync(file)) throw new Error(`The ${game} WebAssembly core ${file} is missing: \`npm run build\` makes it.`);
  return new WebAssembly.Instance(new WebAssembly.Module(readFileSync(file)), imports).exports as Exports;
}
