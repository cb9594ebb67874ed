import { describe, expect, it } from 'vitest';
import { OthelloBoard } from '../../shared/othello/board.js';
import { EDGE_STABLE } from './evaluate.js';
import { stableCount, stableDiscs } from './stability.js';
import { seededBelow } from '../../shared/random.js';

describe('edge stability table', () => {
  it.each([
    // [edge as a1..h1 with X, O, -, stable squares as the same string with S for stable]
    ['XXXXXXXX', 'SSSSSSSS'],
    ['X-------', 'S-------'],
    ['XX-----O', 'SS-----S'],
    ['-XXXXXX-', '--------'],
    ['XOXO----', 'S-------'],
    ['XXXOOO--', 'SSS-----'],
  ])('%s → %s', (edge, expected) => {
    let p = 0;
    let o = 0;
    for (let i = 0; i < 8; i++) {
      if (edge[i] === 'X') p |= 1 << i;
      if (edge[i] === 'O') o |= 1 << i;
    }
    const stable = EDGE_STABLE[(p << 8) | o]!;
    const shown = Array.from({ length: 8 }, (_, i) => (stable & (1 << i) ? 'S' : '-')).join('');
    expect(shown).toBe(expected);
  });
});

describe('stable discs', () => {
  it('counts every disc of a full board', () => {
    expect(stableCount(0x0f0f0f0f, 0x0f0f0f0f, 0xf0f0f0f0 | 0, 0xf0f0f0f0 | 0)).toBe(32);
  });

  it('never count a disc that a later move flips', () => {
    // Random games; the stable discs claimed at any position must all still be there, in the
    // same colour, at every later position of the game. Claims only grow, so their union is kept.
    const random = seededBelow(64);
    const buffer = new Int32Array(33);
    let checked = 0;
    let broken = 0;
    for (let game = 0; game < 300; game++) {
      const board = OthelloBoard.start();
      let claimedBlackHi = 0;
      let claimedBlackLo = 0;
      let claimedWhiteHi = 0;
      let claimedWhiteLo = 0;
      for (;;) {
        const [bHi, bLo, wHi, wLo] = board.blackToMove ? [board.pHi, board.pLo, board.oHi, board.oLo] : [board.oHi, board.oLo, board.pHi, board.pLo];
        if ((claimedBlackHi & ~bHi) | (claimedBlackLo & ~bLo) | (claimedWhiteHi & ~wHi) | (claimedWhiteLo & ~wLo)) broken++;
        checked += stableCount(bHi, bLo, wHi, wLo);
        claimedBlackHi |= stableDiscs[0]!;
        claimedBlackLo |= stableDiscs[1]!;
        checked += stableCount(wHi, wLo, bHi, bLo);
        claimedWhiteHi |= stableDiscs[0]!;
        claimedWhiteLo |= stableDiscs[1]!;
        const n = board.generateMoves(buffer, 0);
        if (n === 0) break;
        board.make(buffer[random(n)]!);
      }
    }
    expect(broken).toBe(0);
    expect(checked).toBeGreaterThan(10_000);
  });
});
