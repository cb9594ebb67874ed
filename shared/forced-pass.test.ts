import { describe, expect, it } from 'vitest';
import { isForcedPass } from './forced-pass.js';
import { GAMES } from './games.js';
import { GAME_IDS } from './rules.js';
import { seededRandom } from './random.js';

// A pass is forced exactly when the rules accept a pass: in Othello when no disc can be placed,
// in the other games never. The server plays it, the client never offers it.
describe('isForcedPass', () => {
  for (const id of GAME_IDS) {
    it(`holds exactly where ${id}'s rules accept a pass`, () => {
      const { rules } = GAMES[id];
      const pass = rules.parseMove('pass');
      const random = seededRandom(5);
      let forced = 0;
      for (let game = 0; game < 40; game++) {
        let position = rules.start();
        while (rules.outcome(position) === null) {
          const legal = rules.legalMoves(position);
          const passAccepted = pass.ok && !rules.check(position, pass.value);
          expect(isForcedPass(legal, (m) => rules.formatMove(m))).toBe(passAccepted);
          expect(isForcedPass(legal.map((m) => rules.formatMove(m)))).toBe(passAccepted);
          if (passAccepted) forced++;
          position = rules.play(position, legal[Math.floor(random() * legal.length)]!);
        }
      }
      if (id === 'othello') expect(forced).toBeGreaterThan(0);
      else expect(forced).toBe(0);
    });
  }
});
