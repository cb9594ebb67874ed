import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * How a game's document is kept in Redis. A live game's is plain JSON: it is written on every
 * move, and compressing it would cost CPU per move. A finished game's is written once and kept for
 * good, so it is deflated against a dictionary of what every document repeats (its field names,
 * seat kinds, a clock) and kept as base64 after a mark: about a third of the bytes. The mark names
 * the dictionary; a new dictionary takes a new mark, and documents under the old one still read.
 */
const MARK = 'z1:';

const DICTIONARY = Buffer.from(
  JSON.stringify({
    seats: {
      black: { kind: 'human', name: null, reservedFor: null, tokenHash: '', connected: false, connectedVia: null, awaySince: null, account: false },
      white: { kind: 'human', name: null, reservedFor: null, tokenHash: '', connected: false, connectedVia: null, awaySince: null, account: false },
    },
    kind: 'bot', agent: 'agent', bank: 'bank', fischer: 'fischer', byoyomi: 'byoyomi', move: 'move', perMove: 'perMove',
    rated: false, ladder: false, owner: 'address:127.0.0.1', status: 'finished',
    position: { game: 'minichess', board: '', toMove: 'black' },
    clock: { black: 0, white: 0, turnStartedAt: null, outageMs: 0 },
    result: { winner: 'white', reason: 'resignation' }, time: 'time', abandoned: 'abandoned', draw: 'draw', agreement: 'agreement', aborted: 'aborted',
    drawOffer: null, createdAt: 1_800_000_000_000, updatedAt: 1_800_000_000_000, rematch: null,
    ratingChange: { black: { before: 1500, after: 1500, rd: 350 }, white: { before: 1500, after: 1500, rd: 350 } },
    id: '', game: 'othello', gomoku: 'gomoku', options: {}, timeControl: { kind: 'bank', initialMs: 600_000, incrementMs: 0 }, showThinking: true,
    start: '---------------------------OX------XO--------------------------- X',
  }),
);

export function encodeDocument(doc: { readonly status: string }): string {
  const json = JSON.stringify(doc);
  if (doc.status !== 'finished') return json;
  return MARK + deflateRawSync(json, { dictionary: DICTIONARY, level: 9 }).toString('base64');
}

export function decodeDocument<T>(text: string): T {
  if (!text.startsWith(MARK)) return JSON.parse(text) as T;
  return JSON.parse(inflateRawSync(Buffer.from(text.slice(MARK.length), 'base64'), { dictionary: DICTIONARY }).toString()) as T;
}
