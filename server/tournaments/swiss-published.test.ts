import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Color } from '../../shared/color.js';
import { colourWish } from './colours.js';
import { pairSwiss, type SwissPlayer } from './swiss.js';

// Published Dutch-system pairings replayed round by round: from the record as it stood before
// round r, `pairSwiss` pairs round r, and that is compared with the record's round r.
//
// swiss-published/bbp-8p5r.trf: gnutterts/chesspairing, trf/testdata/bbp-8p5r-output.trf, a
// tournament of 8 players and 5 rounds paired by bbpPairings (Dutch system).
// swiss-published/corpus-1014.trf: gnutterts/chesspairing, internal/harness/testdata/corpus/1014.trf,
// 16 players and 7 rounds made by bbpPairings 6.0.0's tournament generator and paired by its Dutch
// engine (the 2026 rules), with forfeits and requested byes; the stored file has no line breaks
// between its records, here it has one per record.

interface Entry {
  readonly opponent: number | null;
  readonly colour: string;
  readonly result: string;
}

interface Entrant {
  readonly start: number;
  readonly rating: number;
  readonly rounds: readonly Entry[];
}

/** FIDE's TRF (C.04 Annex 2): per "001" record the start rank, the rating, then ten characters a round. */
function readTrf(name: string): Entrant[] {
  const text = readFileSync(new URL(`./swiss-published/${name}`, import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.startsWith('001'))
    .map((line) => {
      const rounds: Entry[] = [];
      for (let at = 89; at < line.length; at += 10) {
        const opponent = Number(line.slice(at + 2, at + 6));
        rounds.push({ opponent: opponent === 0 ? null : opponent, colour: line[at + 7]!, result: line[at + 9]! });
      }
      return { start: Number(line.slice(4, 8)), rating: Number(line.slice(48, 52)), rounds };
    });
}

const idOf = (start: number): string => `#${String(start).padStart(2, '0')}`;
const POINTS: Record<string, number> = { '1': 1, '=': 0.5, '0': 0, '+': 1, '-': 0, U: 1, F: 1, H: 0.5, Z: 0 };
const forfeited = (e: Entry): boolean => e.result === '+' || e.result === '-';
const played = (e: Entry): boolean => e.opponent !== null && !forfeited(e);
// The first mover is TRF's white and our black (`pairSwiss` gives the top board's first player black in round 1).
const colourOf = (trf: string): Color => (trf === 'w' ? 'black' : 'white');
const paired = (e: Entry | undefined): boolean => e !== undefined && (e.opponent !== null || e.result === 'U');

/**
 * The players of a round as the record stood before it, read the Dutch way: a forfeit is no game
 * (neither a colour nor a meeting) and its winner may not have the bye; whoever was not paired
 * (a requested bye) sits the round out.
 */
function before(entrants: readonly Entrant[], round: number): SwissPlayer[] {
  return entrants
    .filter((e) => paired(e.rounds[round - 1]))
    .map((e) => {
      const past = e.rounds.slice(0, round - 1);
      return {
        id: idOf(e.start),
        rating: e.rating,
        points: past.reduce((sum, g) => sum + POINTS[g.result]!, 0),
        colours: past.filter(played).map((g) => colourOf(g.colour)),
        opponents: new Set(past.filter(played).map((g) => idOf(g.opponent!))),
        hadBye: past.some((g) => g.result === 'U' || g.result === 'F' || g.result === '+'),
      };
    });
}

interface Shown {
  readonly games: string[];
  readonly bye: string | null;
}

/** A round's boards as "black-white" in our colours, in one order (board numbers are not compared). */
const shown = (games: readonly (readonly [string, string])[], bye: string | null): Shown => ({ games: games.map(([b, w]) => `${b}-${w}`).sort(), bye });

function published(entrants: readonly Entrant[], round: number): Shown {
  const games: [string, string][] = [];
  let bye: string | null = null;
  for (const e of entrants) {
    const g = e.rounds[round - 1];
    if (g?.result === 'U') bye = idOf(e.start);
    if (g?.opponent != null && g.colour === 'w') games.push([idOf(e.start), idOf(g.opponent)]);
  }
  return shown(games, bye);
}

function ours(entrants: readonly Entrant[], round: number): Shown {
  const pairing = pairSwiss(before(entrants, round), round);
  expect(pairing, `round ${round} pairs`).not.toBeNull();
  return shown(pairing!.games, pairing!.bye);
}

/** The boards only one side has. */
function difference(a: Shown, b: Shown): { ours: string[]; published: string[] } {
  const only = (x: Shown, y: Shown) => [...x.games.filter((g) => !y.games.includes(g)), ...(x.bye !== y.bye ? [`bye ${x.bye}`] : [])];
  return { ours: only(a, b), published: only(b, a) };
}

/** What both systems promise: the scores each board joins, the bye's score, no rematch, and colour wishes left unmet by strength. */
function shape(round: Shown, players: readonly SwissPlayer[]) {
  const byId = new Map(players.map((p) => [p.id, p]));
  const unmet = [0, 0, 0, 0];
  const scores = round.games.map((game) => {
    const [black, white] = game.split('-').map((id) => byId.get(id)!) as [SwissPlayer, SwissPlayer];
    expect(black.opponents.has(white.id), `${game} is a rematch`).toBe(false);
    for (const [p, got] of [[black, 'black'], [white, 'white']] as const) {
      const wish = colourWish(p.colours);
      if (wish.color !== null && wish.color !== got) unmet[wish.strength]! += 1;
    }
    return [black.points, white.points].sort((x, y) => y - x).join('/');
  });
  return { scores: scores.sort(), byeScore: round.bye === null ? null : byId.get(round.bye)!.points, unmet };
}

describe('Swiss pairing replays published Dutch pairings', () => {
  it('bbpPairings, 8 players over 5 rounds: all 20 boards the same, colours included', () => {
    const entrants = readTrf('bbp-8p5r.trf');
    for (let round = 1; round <= 5; round++) expect(ours(entrants, round), `round ${round}`).toEqual(published(entrants, round));
  });

  describe('bbpPairings 6.0.0, 16 players over 7 rounds with forfeits and requested byes', () => {
    const entrants = readTrf('corpus-1014.trf');

    it('rounds 1, 2, 5 and 7 are the same board for board, colours and bye included (31 boards)', () => {
      for (const round of [1, 2, 5, 7]) expect(ours(entrants, round), `round ${round}`).toEqual(published(entrants, round));
    });

    // Where the rules differ (docs/tournaments.md), 11 of these rounds' 23 boards and one bye:
    // 3: in the half-point group ours puts its top half against its bottom half before mild colour
    //    wishes, Dutch the other way round (all eight wishes met there, four unmet in ours); and
    //    #05, floating down from 1.5, meets #07 in ours, the higher #06 in Dutch (colours equal).
    // 4: Dutch floats #04 down from 2 rather than #08, whose forfeit win two rounds before counts
    //    as a float in its float history, which ours does not keep. Dutch gives the bye to the
    //    lowest of the half-point group (#15) and leaves #12's strong colour wish unmet; ours gives
    //    it to #12 and meets every strong wish.
    // 6: #10, floating down from 3, meets #09 in Dutch, past #01 and #06, who floated up in rounds
    //    4 and 5; ours, without float history, gives it #01.
    const DIFFERENT: Record<number, { ours: string[]; published: string[] }> = {
      3: {
        ours: ['#06-#04', '#07-#05', '#09-#12', '#10-#14', '#13-#16', '#15-#11'],
        published: ['#06-#05', '#07-#04', '#10-#12', '#13-#15', '#14-#09', '#16-#11'],
      },
      4: { ours: ['#01-#08', '#04-#05', '#15-#14', 'bye #12'], published: ['#04-#01', '#05-#08', '#12-#14', 'bye #15'] },
      6: { ours: ['#01-#10', '#09-#06'], published: ['#01-#06', '#09-#10'] },
    };

    it('rounds 3, 4 and 6 differ only on the boards listed, with the same score groups, floats, bye score and no more colour wishes unmet', () => {
      for (const [round, expected] of Object.entries(DIFFERENT).map(([r, d]) => [Number(r), d] as const)) {
        const [mine, theirs] = [ours(entrants, round), published(entrants, round)];
        expect(difference(mine, theirs), `round ${round}`).toEqual(expected);
        const players = before(entrants, round);
        const [a, b] = [shape(mine, players), shape(theirs, players)];
        expect(a.scores, `round ${round} score groups`).toEqual(b.scores);
        expect(a.byeScore, `round ${round} bye`).toBe(b.byeScore);
        expect(a.unmet[3], `round ${round} absolute wishes`).toBe(0);
        expect(a.unmet[2]!, `round ${round} strong wishes`).toBeLessThanOrEqual(b.unmet[2]!);
      }
    });
  });
});
