import { describe, expect, it } from 'vitest';
import { GAMES } from './games.js';
import { GAME_IDS } from './rules.js';
import { seededRandom } from './random.js';

// `apply` is check, play and outcome on one board: over random games, and for every move tried
// (legal or not), it must answer exactly what the three do one after the other.
describe('Rules.apply', () => {
  for (const id of GAME_IDS) {
    it(`agrees with check, play and outcome in ${id}`, () => {
      const { rules } = GAMES[id];
      const random = seededRandom(17);
      for (let game = 0; game < 20; game++) {
        let position = rules.start();
        while (rules.outcome(position) === null) {
          const legal = rules.legalMoves(position);
          const tried = [legal[Math.floor(random() * legal.length)]!, Math.floor(random() * 1000)];
          for (const move of tried) {
            for (const by of [rules.toMove(position), undefined] as const) {
              const applied = rules.apply(position, move, by);
              const problem = rules.check(position, move, by);
              if (problem) expect(applied).toEqual({ ok: false, error: problem });
              else {
                const next = rules.play(position, move);
                expect(applied).toEqual({ ok: true, value: { position: next, outcome: rules.outcome(next) } });
              }
            }
          }
          position = rules.play(position, tried[0]!);
          const other = rules.toMove(position) === 'black' ? 'white' : 'black';
          expect(rules.apply(position, legal[0]!, other).ok, 'the side not to move is refused').toBe(false);
        }
      }
    });
  }
});
