// The Othello core's exports: boards in, boards or counts out, all u64 (BigInt on the JS side).
export { placements } from './moves';
export { flips } from './flips';
export { perft } from './perft';
export { solveExact, solvedNodes } from './endgame';
