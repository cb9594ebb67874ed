import { describe, expect, it } from 'vitest';
import { AgentSeatActionSchema, SeatActionSchema } from '../../shared/protocol/index.js';
import { sampleGame } from '../store/store.contract.js';
import { hashToken } from './tokens.js';
import { parseWithProof, provenSeat } from './seat-proof.js';

const seat = { kind: 'human' as const, name: null, reservedFor: null, tokenHash: null, connected: false, connectedVia: null, awaySince: null, account: false };
const agentSeat = (name: string) => ({ ...seat, kind: 'agent' as const, name });
const problem = (r: { ok: boolean; error?: { code: string } }) => (r.ok ? undefined : r.error?.code);

describe('a seat proof', () => {
  it('a token proves the seat whose hash it matches, and nothing else', () => {
    const game = sampleGame({ status: 'live', seats: { black: { ...seat, tokenHash: hashToken('tok-b') }, white: { ...seat, tokenHash: hashToken('tok-w') } } });
    expect(provenSeat(game, { token: 'tok-w' })).toEqual({ ok: true, value: 'white' });
    expect(problem(provenSeat(game, { token: 'nope' }))).toBe('seat/bad_token');
  });

  it('an agent proves its own seat; holding both, the side to move', () => {
    const one = sampleGame({ status: 'live', seats: { black: seat, white: agentSeat('Edax') } });
    expect(provenSeat(one, { agent: 'Edax' })).toEqual({ ok: true, value: 'white' });
    expect(problem(provenSeat(one, { agent: 'Other' }))).toBe('seat/bad_token');
    const both = sampleGame({ status: 'live', seats: { black: agentSeat('Edax'), white: agentSeat('Edax') } });
    expect(provenSeat(both, { agent: 'Edax' })).toEqual({ ok: true, value: 'black' });
  });

  it('a colour the server vouches for is taken as it is', () => {
    expect(provenSeat(sampleGame(), { color: 'white' })).toEqual({ ok: true, value: 'white' });
  });

  it("reads a person's request with its token and an agent's without one", () => {
    const token = 'a-seat-token-of-length';
    expect(parseWithProof({ gameId: 'g1', token }, undefined, SeatActionSchema, AgentSeatActionSchema)).toMatchObject({ ok: true, value: { proof: { token } } });
    expect(problem(parseWithProof({ gameId: 'g1' }, undefined, SeatActionSchema, AgentSeatActionSchema))).toBe('payload/invalid');
    expect(parseWithProof({ gameId: 'g1' }, 'Edax', SeatActionSchema, AgentSeatActionSchema)).toMatchObject({ ok: true, value: { request: { gameId: 'g1' }, proof: { agent: 'Edax' } } });
  });
});
