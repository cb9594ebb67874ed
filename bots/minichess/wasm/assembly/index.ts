// The MiniChess core's exports: the move generator, on piece codes the caller writes into its memory.
export { movesPointer, scan, squaresPointer } from './moves';
