/**
 * What the exact solver's root (`endgame.ts`) needs of the search below it, which the TypeScript
 * solver and the WebAssembly core (`wasm-core.ts`) each provide.
 */
export interface ChildSolver {
  /** Starts a solve whose root counts one node, from an empty table. */
  begin(deadline: number): void;
  /** The fail-soft margin of a position below the root, the side to move's. */
  child(pHi: number, pLo: number, oHi: number, oLo: number, alpha: number, beta: number, empties: number, ply: number): number;
  /** True once the deadline came: the scores since mean nothing. */
  stopped(): boolean;
  nodes(): number;
}
