import { describe, expect, it } from 'vitest';
import { GAMES } from '../../../shared/games.js';
import { PIECE_VALUES, STEP_LIMIT } from '../../../shared/minichess/index.js';
import { GAME_IDS, type GameId } from '../../../shared/rules.js';
import { playMove, snapshot, type Snapshot } from '../model.js';
import { offsetOf } from './client-game.js';
import { CLIENT_GAMES } from './index.js';

// Each game's part of the client, read off real positions (the drawing is checked in Chromium, test/browser/).

function line(game: GameId, moves: string[]): Snapshot[] {
  let position = GAMES[game].rules.start({});
  const out = [snapshot(game, {}, position, [])];
  moves.forEach((move, i) => {
    position = playMove(game, position, move)!;
    out.push(snapshot(game, {}, position, moves.slice(0, i + 1)));
  });
  return out;
}

describe('client games', () => {
  it('name every square of their grid once, from either side, and find it again', () => {
    for (const id of GAME_IDS) {
      const game = CLIENT_GAMES[id];
      expect(game.id).toBe(id);
      for (const side of ['black', 'white'] as const) {
        const grid = game.grid(side);
        const names = new Set<string>();
        for (let r = 0; r < grid.rows; r++) for (let c = 0; c < grid.cols; c++) names.add(grid.cell(c, r));
        expect(names.size).toBe(grid.cols * grid.rows);
        for (const name of names) expect(grid.cell(...offsetOf(grid, name)!)).toBe(name);
        expect(names.has(game.centre)).toBe(true);
      }
    }
    // MiniChess turns the board for black: e1 at the top left, a1 at the top left for white's view of a6.
    expect([CLIENT_GAMES.minichess.grid('black').cell(0, 0), CLIENT_GAMES.minichess.grid('white').cell(0, 0)]).toEqual(['e1', 'a6']);
  });

  it('count discs and material, and say the score of the result line', () => {
    const [othello] = line('othello', ['f5']).slice(-1);
    expect(CLIENT_GAMES.othello.count?.of(othello!.position)).toEqual({ black: 4, white: 1 });
    expect(CLIENT_GAMES.othello.score?.(othello!.position)).toBe('4 – 1');
    const chess = line('minichess', ['b2b3', 'c5c4', 'b3c4']).at(-1)!;
    const material = CLIENT_GAMES.minichess.count!.of(chess.position);
    expect(material.white - material.black).toBe(PIECE_VALUES.pawn); // a pawn up, by the rules' values
    expect(CLIENT_GAMES.minichess.score?.(chess.position)).toBe(`Material ${material.white} – ${material.black}`);
    expect(CLIENT_GAMES.gomoku.count).toBeUndefined();
  });

  it('take the step limit from the rules, and premove with the pieces as they stand', () => {
    expect(CLIENT_GAMES.minichess.statusNote?.(11)).toBe(` · ply 12 of ${STEP_LIMIT}`);
    const [start] = line('minichess', []);
    const black = CLIENT_GAMES.minichess.premoves!(start!, 'black');
    expect(black.length).toBeGreaterThan(0);
    expect(black.every((m) => CLIENT_GAMES.minichess.occupant(start!.position, m.slice(0, 2))?.startsWith('black'))).toBe(true);
  });

  it('animate the flips, the new stone and the sliding piece', () => {
    const othello = line('othello', ['f5']);
    expect(CLIENT_GAMES.othello.motion(othello[0]!, othello[1]!)).toEqual({ placed: 'f5', flips: new Set(['e5']) });
    const gomoku = line('gomoku', ['h8']);
    expect(CLIENT_GAMES.gomoku.motion(gomoku[0]!, gomoku[1]!)).toEqual({ placed: 'h8' });
    const chess = line('minichess', ['b2b3']);
    expect(CLIENT_GAMES.minichess.motion(chess[0]!, chess[1]!)).toEqual({ slide: { from: 'b2', to: 'b3' } });
  });
});
