import type { MoveErrorCode } from '../rules.js';
import type { Problem } from '../result.js';

/** Every code a request can be refused with; PROTOCOL.md explains each. */
export const SERVER_ERROR_CODES = [
  'payload/invalid', // the payload does not match its schema
  'payload/too_large',
  'rate/limited', // too many messages on this connection; `retryAfterMs` says when to send again
  'event/unknown', // no request of that name on this namespace
  'auth/required', // admin or agent namespace without credentials
  'auth/bad_token',
  'protocol/unsupported', // (connect) the handshake names a protocol version this server does not speak
  'room/not_found',
  'game/lost', // (event) the game is gone from the server's store
  'room/full', // no open seat of the asked colour
  'room/reserved', // the seat is reserved for another agent
  'room/bad_seat', // a seat spec that cannot be (unknown bot, no human seat to sit in)
  'room/same_player', // the other seat of this rated room is held by the same account or agent
  'seat/bad_token', // the seat token does not belong to a seat of this game
  'seat/not_agent', // an agent tried to take a seat not meant for agents
  'game/not_live', // the game has not started or has ended
  'game/no_draw_offer',
  'move/stale_ply', // the move names a ply that is not the current one
  'clock/flag_fell', // the move came after the mover's time ran out: the game is lost on time
  'server/busy', // a concurrent write won: try again with the new state
  'server/unavailable', // the game store cannot be reached just now: nothing changed; `retryAfterMs`
  'agent/name_taken', // (admin API) an agent of that name exists already
  'agent/not_found', // (admin API) no agent of that name
  'challenge/not_found', // no waiting room reserved for this agent by that id
  'route/not_found', // (HTTP) no such path or method under /api or /admin/api
  'record/bad_format', // (HTTP) a game record asked in a format the server does not write for that game
  'rating/needs_account', // a rated game (or a rated seek) needs a signed-in account in a human seat
  'account/name_taken', // (HTTP) sign-up with a name that an account, an agent or a bot has
  'auth/bad_credentials', // (HTTP) sign-in with an unknown name or a wrong password
  'auth/rate_limited', // (HTTP) too many sign-in attempts for that name or from that address; `retryAfterMs`
  'session/ended', // (event) the connection's session was signed out or ran out: it is a guest's from now
  'session/lost', // (event) the store came back empty, sessions and accounts with it: a guest's from now
  'store/emptied', // (admin event) the store came back empty: games, accounts, sessions and ratings are gone
  'player/not_found', // (HTTP) no account, agent or bot of that name
  'seek/not_found', // the seek was paired, cancelled or never made
  'seek/too_many', // this connection already has a seek waiting
  'quota/live_rooms', // the owner (account, agent or address) has as many unfinished rooms as allowed
  'quota/rooms_per_minute', // the owner made as many rooms this minute as allowed; `retryAfterMs`
  'quota/live_bot_games', // the owner has as many unfinished games with a bot as allowed
  'quota/bot_seconds', // the owner's rooms asked for as much bot thinking this minute as allowed; `retryAfterMs`
  'quota/connections', // (connect) as many connections are open from this address as allowed
  'admin/too_many_open', // an admin connection follows as many games move by move as allowed; close one first
  'analysis/not_finished', // only a finished game can be analysed
  'room/not_yours', // no seat of the room is the signed-in account's
  'tournament/not_found',
  'tournament/closed', // entries are closed: it started (Swiss, round robin) or finished
  'tournament/full', // as many entrants as the tournament takes
  'tournament/rating_too_low', // the entrant's rating is below the tournament's minimum
  'tournament/not_entered', // the account or agent is not an entrant (or withdrew)
  'tournament/not_allowed', // only the creator or the admin may do that
  'tournament/too_few', // a tournament starts with two entrants or more
] as const;
export type ServerErrorCode = (typeof SERVER_ERROR_CODES)[number];
export type ErrorCode = ServerErrorCode | MoveErrorCode;
/** A refusal; `retryAfterMs` when the same request may succeed after that long (rate limits). */
export type ServerError = Problem<ErrorCode> & { readonly retryAfterMs?: number };

/** Every acknowledgement: success with its data, or a refusal with a code and a sentence. */
export type Ack<T = Record<string, never>> = ({ readonly ok: true } & T) | { readonly ok: false; readonly error: ServerError };
