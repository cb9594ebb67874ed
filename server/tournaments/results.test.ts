import { describe, expect, it } from 'vitest';
import { GAMES } from '../../shared/games.js';
import { sampleGame } from '../store/store.contract.js';
import { tournamentResult } from './results.js';

describe('a tournament game result', () => {
  it('an aborted game is lost by the side that was to move: an absent entrant loses on time', () => {
    // Othello: black moves first; nobody moved.
    expect(tournamentResult(sampleGame({ status: 'finished', result: { winner: null, reason: 'aborted' } }))).toEqual({ winner: 'white', reason: 'absent' });
    // Black moved, white never did.
    const rules = GAMES.othello.rules;
    const position = rules.play(rules.start(), rules.legalMoves(rules.start())[0]!);
    expect(tournamentResult(sampleGame({ status: 'finished', position, moves: ['x'], result: { winner: null, reason: 'aborted' } }))?.winner).toBe('black');
  });

  it('a win is a win, a draw a draw, and a game under way no result', () => {
    expect(tournamentResult(sampleGame({ status: 'finished', result: { winner: 'black', reason: 'timeout' } }))).toEqual({ winner: 'black', reason: 'timeout' });
    expect(tournamentResult(sampleGame({ status: 'finished', result: { winner: null, reason: 'agreement' } }))?.winner).toBe('draw');
    expect(tournamentResult(sampleGame({ status: 'live' }))).toBeNull();
  });
});
