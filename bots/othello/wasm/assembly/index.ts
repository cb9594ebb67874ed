// The Othello core's exports: boards in, boards or counts out, all u64 (BigInt on the JS side);
// the solver takes the TypeScript solver's 32-bit halves, called once per root move.
export { placements } from './moves';
export { flips } from './flips';
export { perft } from './perft';
export { beginSolve, solveChild, solvedNodes, solveStopped } from './endgame';
export { midBegin, midClearTable, midNegamax, midNewTable, midNodes, midProbCut, midPvLength, midStopped, midTablePointers, midWeights } from './midgame';
