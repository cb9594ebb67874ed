// Written by `npm run ladder -- --write-provisional` (test/load/ladder.ts); run it again to refresh.
import type { GameId } from '../../shared/rules.js';

export interface MeasuredRating {
  readonly rating: number;
  readonly rd: number;
}

/** The roster bots' ratings as a run of the bot ladder measured them: each bot's start before it has played here. */
export const ROSTER_RATINGS: {
  readonly made: string;
  readonly ratings: Readonly<Record<GameId, Readonly<Record<string, MeasuredRating>>>>;
} = {
  made: 'npm run ladder -- --games 16 --concurrent 2 --bots random,engine-1,engine-2,engine-3 --write-provisional, 2026-11-26 (measured: othello, gomoku, minichess)',
  ratings: {
    othello: {
      'engine-3': {
        rating: 1872,
        rd: 176
      },
      'engine-2': {
        rating: 1590,
        rd: 162
      },
      'engine-1': {
        rating: 1490,
        rd: 159
      },
      random: {
        rating: 1030,
        rd: 170
      }
    },
    gomoku: {
      'engine-2': {
        rating: 1778,
        rd: 159
      },
      'engine-3': {
        rating: 1573,
        rd: 159
      },
      'engine-1': {
        rating: 1533,
        rd: 155
      },
      random: {
        rating: 1093,
        rd: 178
      }
    },
    minichess: {
      'engine-3': {
        rating: 1801,
        rd: 175
      },
      'engine-2': {
        rating: 1680,
        rd: 156
      },
      'engine-1': {
        rating: 1452,
        rd: 161
      },
      random: {
        rating: 1030,
        rd: 170
      }
    }
  }
};
