import { COLORS, type Color } from '../../shared/color.js';
import { accept, parse, refuse, type ServerResult } from '../refuse.js';
import type { StoredGame } from '../store/store.js';
import { seatOfToken, toMove } from './game.js';

/**
 * How a request proves the seat it acts for: the seat's token (a person), the agent its
 * connection authenticated as (an agent's seat is its identity), or a colour the server itself
 * vouches for (a bot's answer, a forced pass). A person's proof may name its connection (`origin`),
 * which hears its own move in the acknowledgement only.
 */
export type SeatProof = { readonly token: string; readonly origin?: string } | { readonly agent: string } | { readonly color: Color };

/** The colours an agent holds in this game. */
export function agentColors(game: Pick<StoredGame, 'seats'>, agent: string): Color[] {
  return COLORS.filter((c) => game.seats[c].kind === 'agent' && game.seats[c].name === agent);
}

/**
 * The seat a proof holds in this state of the game, checked in the same state a change is decided
 * on; an agent holding both seats acts for the side to move.
 */
export function provenSeat(game: StoredGame, proof: SeatProof): ServerResult<Color> {
  if ('color' in proof) return accept(proof.color);
  if ('token' in proof) {
    const color = seatOfToken(game, proof.token);
    return color ? accept(color) : refuse('seat/bad_token', 'That seat token does not hold a seat in this room.');
  }
  const mine = agentColors(game, proof.agent);
  if (mine.length === 0) return refuse('seat/bad_token', `${proof.agent} holds no seat in room "${game.id}".`);
  return accept(mine.includes(toMove(game)) ? toMove(game) : mine[0]!);
}

type Schema<T> = Parameters<typeof parse<T>>[0];

/**
 * A seat's request and its proof: a person's payload carries its seat token (`bySeatToken`); an
 * agent's (`agent` given) names none (`byAgent`), its connection being the proof.
 */
export function parseWithProof<P extends { token: string }, A>(payload: unknown, agent: string | undefined, bySeatToken: Schema<P>, byAgent: Schema<A>): ServerResult<{ request: P | A; proof: SeatProof }> {
  if (agent !== undefined) {
    const request = parse(byAgent, payload);
    return request.ok ? accept({ request: request.value, proof: { agent } }) : request;
  }
  const request = parse(bySeatToken, payload);
  return request.ok ? accept({ request: request.value, proof: { token: request.value.token } }) : request;
}
