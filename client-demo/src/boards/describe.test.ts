import { describe, expect, it } from 'vitest';
import { GAMES } from '../../../shared/games.js';
import type { GameId } from '../../../shared/rules.js';
import { moveSentence, occupant, squareLabel } from './describe.js';
import { playMove, snapshot, type Snapshot } from '../model.js';

// What the web client says of squares and moves to screen readers, read off real positions.

/** The snapshots of a game after each of `moves`, from the start. */
function line(game: GameId, moves: string[]): Snapshot[] {
  let position = GAMES[game].rules.start({});
  const out = [snapshot(game, {}, position, [])];
  moves.forEach((move, i) => {
    const next = playMove(game, position, move);
    if (!next) throw new Error(`${move} is not legal at ply ${i}`);
    position = next;
    out.push(snapshot(game, {}, position, moves.slice(0, i + 1)));
  });
  return out;
}

describe('board words', () => {
  it('names what stands on a square in each game', () => {
    const [othello] = line('othello', []);
    expect(occupant(othello!, 'd4')).toBe('white disc');
    expect(occupant(othello!, 'e4')).toBe('black disc');
    expect(occupant(othello!, 'a1')).toBeNull();
    const gomoku = line('gomoku', ['h8', 'a15']).at(-1)!;
    expect([occupant(gomoku, 'h8'), occupant(gomoku, 'a15'), occupant(gomoku, 'o1')]).toEqual(['black stone', 'white stone', null]);
    const [chess] = line('minichess', []);
    expect([occupant(chess!, 'a1'), occupant(chess!, 'e1'), occupant(chess!, 'b5'), occupant(chess!, 'c3')]).toEqual(['white rook', 'white king', 'black pawn', null]);
  });

  it('labels a square with its marks in a fixed order', () => {
    const [othello] = line('othello', []);
    expect(squareLabel(othello!, 'd3', { legal: true })).toBe('d3, empty, legal move');
    expect(squareLabel(othello!, 'd3', { legal: true, marked: true })).toBe('d3, empty, legal move, marked, press again to play');
    const gomoku = line('gomoku', ['h8']).at(-1)!;
    expect(squareLabel(gomoku, 'h8', { number: 1, last: true })).toBe('h8, black stone, move 1, last move');
    const [chess] = line('minichess', []);
    expect(squareLabel(chess!, 'b2', { movable: true, selected: true })).toBe('b2, white pawn, selected, can move');
    expect(squareLabel(chess!, 'b6', { legal: true, capture: true })).toBe('b6, black queen, capture');
  });

  it('says a move from the positions around it: flips, captures, passes and the end', () => {
    const othello = line('othello', ['f5', 'd6']);
    expect(moveSentence(othello[0]!, othello[1]!)).toBe('Black f5, 1 flipped');
    expect(moveSentence(othello[1]!, othello[2]!)).toBe('White d6, 1 flipped');

    const gomoku = line('gomoku', ['h8', 'a1', 'i8', 'a2', 'j8', 'a3', 'k8', 'a4', 'l8']);
    expect(moveSentence(gomoku[0]!, gomoku[1]!)).toBe('Black h8');
    expect(moveSentence(gomoku.at(-2)!, gomoku.at(-1)!)).toBe('Black l8. Black wins: five in a row');

    // MiniChess: a pawn's capture, named by the piece moving and the piece taken.
    const chess = line('minichess', ['b2b3', 'c5c4', 'b3c4']);
    expect(moveSentence(chess[0]!, chess[1]!)).toBe('White pawn b2 to b3');
    expect(moveSentence(chess[2]!, chess[3]!)).toBe('White pawn b3 to c4, takes pawn');
  });
});
