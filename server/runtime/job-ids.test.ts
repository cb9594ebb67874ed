import { describe, expect, it } from 'vitest';
import { newGameId } from '../games/tokens.js';
import { abandonTimerId, analysisJobId, botJobId, flagTimerId, gameTimerIds, parseAnalysisJobId, parseBotJobId } from './job-ids.js';

describe('job ids', () => {
  it('a bot turn id reads back as its game and ply, whatever dashes the game id holds', () => {
    for (const gameId of ['a', 'x-y', 'ends-', '-starts', '--', 'aB3_-9', newGameId()]) {
      for (const ply of [0, 1, 9, 10, 207]) expect(parseBotJobId(botJobId(gameId, ply))).toEqual({ gameId, ply });
    }
  });

  it('no other job of the bot queue, and nothing malformed, reads as a bot turn', () => {
    const others = [analysisJobId('g-1'), 'g-', '-3', 'g-03', 'g-1e3', 'g-0x10', 'g- 3', 'g-3.5', 'g3'];
    for (const id of others) expect(parseBotJobId(id), id).toBeUndefined();
  });

  it('an analysis id reads back as its game; a bot turn id is not an analysis', () => {
    for (const gameId of ['g', 'x-analysis', newGameId()]) expect(parseAnalysisJobId(analysisJobId(gameId))).toBe(gameId);
    expect(parseAnalysisJobId(botJobId('g', 3))).toBeUndefined();
    expect(parseAnalysisJobId('-analysis')).toBeUndefined();
  });

  it('job ids use no colon, which BullMQ refuses', () => {
    for (const id of [botJobId('g', 1), analysisJobId('g')]) expect(id).not.toContain(':');
  });

  it('a game has one flag and one abandonment timer per seat, named by what they time, none another game’s', () => {
    expect(new Set(gameTimerIds('g')).size).toBe(3);
    expect(gameTimerIds('g')).toEqual([flagTimerId('g'), abandonTimerId('g', 'black'), abandonTimerId('g', 'white')]);
    for (const id of gameTimerIds('g-1')) expect(gameTimerIds('g')).not.toContain(id);
  });
});
