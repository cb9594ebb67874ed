import { COLORS, opposite, type Color } from '../../shared/color.js';
import { GAMES, firstMover, moverAt } from '../../shared/games.js';
import { isForcedPass, PASS } from '../../shared/forced-pass.js';
import type { AgentTurn, CreateRoom, GameResult, GameView, MovedEvent, RoomSummary, SeatSpec, SeatView } from '../../shared/protocol/index.js';
import type { Identity } from '../ratings/rating.js';
import { agentKey, type GameSummary, type StoredGame, type StoredSeat } from '../store/store.js';
import { afterMove, clockView, creditTurn, flagTime, giveTime, startClock, stopClock, timeLeft, turnSpent } from './clock.js';
import { accept, refuse, type ServerResult } from '../refuse.js';
import { hashesMatch, hashToken, newGameId, newToken } from './tokens.js';

/**
 * The rules of a room, as pure functions: each takes a game and returns the next version of it
 * (version + 1) or a refusal with a stable code. The service persists and broadcasts.
 */

function seatOf(spec: SeatSpec): StoredSeat {
  const open = { tokenHash: null, connected: false, connectedVia: null, awaySince: null, account: false };
  switch (spec.kind) {
    case 'human':
      return { kind: 'human', name: null, reservedFor: null, ...open };
    case 'bot':
      return { kind: 'bot', name: spec.bot, reservedFor: null, ...open, connected: true };
    case 'agent':
      return { kind: 'agent', name: null, reservedFor: spec.agent ?? null, ...open };
  }
}

function next(game: StoredGame, changes: Partial<StoredGame>, now: number): StoredGame {
  return { ...game, ...changes, version: game.version + 1, updatedAt: now };
}

export function isTaken(seat: StoredSeat): boolean {
  return seat.kind === 'bot' || seat.tokenHash !== null || (seat.kind === 'agent' && seat.name !== null);
}

/** A game at its start, before anyone has moved. */
function freshGame(
  base: Pick<StoredGame, 'id' | 'game' | 'options' | 'timeControl' | 'showThinking' | 'seats' | 'rated' | 'ladder' | 'owner'>,
  now: number,
): StoredGame {
  const rules = GAMES[base.game].rules;
  const start = rules.start(base.options);
  return {
    ...base,
    status: 'waiting',
    start: rules.formatPosition(start),
    position: start,
    moves: [],
    moveMs: [],
    version: 1,
    clock: { black: null, white: null, turnStartedAt: null },
    result: null,
    drawOffer: null,
    createdAt: now,
    updatedAt: now,
    rematch: null,
    ratingChange: null,
  };
}

/** A new room from a validated request; bots must be known (`botExists`). */
export function createGame(spec: CreateRoom, botExists: (name: string) => boolean, now: number, made: { id?: string; ladder?: boolean; owner?: string | null; reserved?: Partial<Record<Color, string>> } = {}): ServerResult<StoredGame> {
  for (const color of COLORS) {
    const seat = spec.seats[color];
    if (seat.kind === 'bot' && !botExists(seat.bot)) return refuse('room/bad_seat', `No bot "${seat.bot}" plays ${spec.game}.`);
  }
  // A human seat may be kept for one person (a tournament's pairing), as an agent seat for one agent.
  const reserve = (color: Color): StoredSeat => {
    const seat = seatOf(spec.seats[color]);
    return made.reserved?.[color] ? { ...seat, reservedFor: made.reserved[color]! } : seat;
  };
  const seats = { black: reserve('black'), white: reserve('white') };
  const game = freshGame(
    { id: made.id ?? newGameId(), game: spec.game, options: spec.options, timeControl: spec.timeControl, showThinking: spec.showThinking ?? !spec.rated, seats, rated: spec.rated, ladder: made.ladder ?? false, owner: made.owner ?? null },
    now,
  );
  return accept(startIfFull(game, now)); // a room of bots starts at once
}

/**
 * Takes an open seat for a human (`agent` undefined) or an agent, held by a connection of the
 * server process `via`; starts the game when full.
 */
export function sit(
  game: StoredGame,
  wanted: Color | 'any' | 'random',
  who: { readonly name: string; readonly agent?: boolean; readonly account?: boolean; readonly via: string },
  now: number,
  random: () => number = Math.random,
): ServerResult<{ game: StoredGame; color: Color; token: string }> {
  if (game.status === 'finished') return refuse('game/not_live', 'The game is over.');
  const kind = who.agent ? 'agent' : 'human';
  if (game.rated && kind === 'human' && !who.account) return refuse('rating/needs_account', 'A rated game is played by signed-in players: sign in, or pick a casual room.');
  const fits = (c: Color): boolean => {
    const seat = game.seats[c];
    return seat.kind === kind && !isTaken(seat) && (seat.reservedFor === null || agentKey(seat.reservedFor) === agentKey(who.name));
  };
  const open = COLORS.filter(fits);
  let color: Color | undefined;
  if (wanted === 'any') color = open[0];
  else if (wanted === 'random') color = open[Math.floor(random() * open.length)];
  else color = open.includes(wanted) ? wanted : undefined;
  if (color === undefined) {
    const asked = wanted !== 'any' && wanted !== 'random' ? game.seats[wanted] : undefined;
    if (asked && asked.kind !== kind && !isTaken(asked)) {
      return refuse(who.agent ? 'seat/not_agent' : 'room/full', `The ${wanted} seat is not for ${kind === 'agent' ? 'an agent' : 'a person'}.`);
    }
    if (asked && !isTaken(asked) && asked.reservedFor !== null) {
      return refuse('room/reserved', `The ${wanted} seat is reserved for the agent ${asked.reservedFor}.`);
    }
    return refuse('room/full', wanted === 'any' || wanted === 'random' ? 'No seat is open for you in this room.' : `The ${wanted} seat is taken.`);
  }
  const token = newToken();
  const seat: StoredSeat = { ...game.seats[color], name: who.name, tokenHash: hashToken(token), connected: true, connectedVia: who.via, awaySince: null, account: kind === 'human' && who.account === true };
  if (game.rated && samePlayer(seat, game.seats[opposite(color)])) {
    return refuse('room/same_player', `The other seat of this rated room is ${who.name}'s already: a rated game needs two players.`);
  }
  const seated = { ...game, seats: { ...game.seats, [color]: seat } };
  return accept({ game: next(startIfFull(seated, now), {}, now), color, token });
}

/** Whether two seats are one account's, or one agent's: one rating, which a game cannot rate against itself. */
function samePlayer(a: StoredSeat, b: StoredSeat): boolean {
  const [x, y] = [seatIdentity(a), seatIdentity(b)];
  return x !== null && y !== null && x.kind === y.kind && x.name.toLowerCase() === y.name.toLowerCase();
}

function startIfFull(game: StoredGame, now: number): StoredGame {
  if (game.status !== 'waiting' || !COLORS.every((c) => isTaken(game.seats[c]))) return game;
  return { ...game, status: 'live', clock: startClock(game.timeControl, now) };
}

export function seatOfToken(game: StoredGame, token: string): Color | undefined {
  const hash = hashToken(token);
  return COLORS.find((c) => hashesMatch(hash, game.seats[c].tokenHash));
}

export function toMove(game: Pick<StoredGame, 'game' | 'moves'>): Color {
  // Every game starts from its rules' start and the sides alternate (a pass is a move): the ply
  // says who is to move with no board loaded, as the rules would.
  return moverAt(game.game, game.moves.length);
}

function finish(game: StoredGame, result: GameResult, now: number): StoredGame {
  return next(game, { status: 'finished', result, drawOffer: null, clock: stopClock(game.timeControl, game.clock, toMove(game), now) }, now);
}

/** As on Lichess, a side has this long to make its first move (or its clock, if shorter), else the game is aborted. */
export const FIRST_MOVE_GRACE_MS = 30_000;

function hasMoved(game: StoredGame, color: Color): boolean {
  return game.moves.length > (firstMover(game.game) === color ? 0 : 1);
}

/**
 * When the side to move must have made its first move: `graceMs` after its turn began, or its
 * flag if sooner. Null once it has moved, in a game without a clock, and for a bot, whose delays
 * are the platform's (see `owedBotFlag`).
 */
export function firstMoveDue(game: StoredGame, graceMs: number): number | null {
  const mover = toMove(game);
  const flag = flagTime(game.timeControl, game.clock, mover);
  if (game.status !== 'live' || flag === null || game.seats[mover].kind === 'bot' || hasMoved(game, mover)) return null;
  return Math.min(flag, game.clock.turnStartedAt! + graceMs);
}

/** When the side to move's turn timer fires: its first move's due time, else its flag. */
export function turnDue(game: StoredGame, graceMs: number): number | null {
  return firstMoveDue(game, graceMs) ?? flagTime(game.timeControl, game.clock, toMove(game));
}

/** A game ended before both sides had moved: no winner, no game. */
function abort(game: StoredGame, why: string, now: number): StoredGame {
  return finish(game, { winner: null, reason: 'aborted', note: why }, now);
}

/** Plays `text` for `color` at `ply`: the whole check of "one move, end to end", step 2. */
export function playMove(game: StoredGame, color: Color, ply: number, text: string, now: number, graceMs = FIRST_MOVE_GRACE_MS): ServerResult<{ game: StoredGame; move: string }> {
  if (game.status !== 'live') return refuse('game/not_live', game.status === 'waiting' ? 'The game has not started.' : 'The game is over.');
  if (ply !== game.moves.length) return refuse('move/stale_ply', `The move is for ply ${ply}, but the game is at ply ${game.moves.length}.`);
  const { rules } = GAMES[game.game];
  const mover = toMove(game);
  if (color !== mover) return refuse('move/not_your_turn', `It is ${mover}'s turn, not ${color}'s.`);
  const due = firstMoveDue(game, graceMs);
  if (due !== null && now > due) return refuse('game/not_live', `The game is aborted: ${mover}'s first move did not come in time.`);
  if (timeLeft(game.timeControl, game.clock, mover, now) < 0) {
    return refuse('clock/flag_fell', `${mover}'s time ran out before the move arrived.`);
  }
  const parsed = rules.parseMove(text);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const applied = rules.apply(game.position, parsed.value, color);
  if (!applied.ok) return { ok: false, error: applied.error };
  const { position, outcome } = applied.value;
  const move = rules.formatMove(parsed.value);
  const moved: Partial<StoredGame> = {
    position,
    moves: [...game.moves, move],
    moveMs: [...(game.moveMs.length === game.moves.length ? game.moveMs : game.moves.map((_, i) => game.moveMs[i] ?? null)), turnSpent(game.clock, now)],
    clock: afterMove(game.timeControl, game.clock, mover, now, outcome === null),
    drawOffer: game.drawOffer === opposite(color) ? null : game.drawOffer, // moving declines an offer
  };
  if (outcome) return accept({ game: next(game, { ...moved, status: 'finished', result: { ...outcome }, drawOffer: null }, now), move });
  return accept({ game: next(game, moved, now), move });
}

/** The pass the side to move must play, when a pass is its only legal move (the rule is `shared/forced-pass.ts`). */
export function forcedPass(game: StoredGame): string | undefined {
  const { rules, passes } = GAMES[game.game];
  if (game.status !== 'live' || !passes) return undefined;
  return isForcedPass(rules.legalMoves(game.position), (m) => rules.formatMove(m)) ? PASS : undefined;
}

/**
 * Ends the game on time if the side to move at `ply` has really run out at `now`; aborts it if
 * that side's first move is overdue.
 */
export function flagFall(game: StoredGame, ply: number, now: number, graceMs = FIRST_MOVE_GRACE_MS): StoredGame | undefined {
  if (game.status !== 'live' || game.moves.length !== ply) return undefined;
  const mover = toMove(game);
  const due = firstMoveDue(game, graceMs);
  if (due !== null) return now >= due ? abort(game, `No first move from ${mover} in time.`, now) : undefined;
  if (timeLeft(game.timeControl, game.clock, mover, now) > 0) return undefined;
  return finish(game, { winner: opposite(mover), reason: 'timeout' }, now);
}

/**
 * The flag of a bot seat fell while the platform still owed the bot its move (its job waiting for
 * a worker, or run again after a worker died): the bot is given `stepMs` more, as servers give
 * back lag, and the time given is counted. Past `maxMs` given in one turn, no worker is coming:
 * the game is drawn by adjudication, since a crash must not decide it. Undefined when not due.
 */
export function owedBotFlag(game: StoredGame, ply: number, now: number, stepMs: number, maxMs: number): StoredGame | undefined {
  if (game.status !== 'live' || game.moves.length !== ply) return undefined;
  const mover = toMove(game);
  if (timeLeft(game.timeControl, game.clock, mover, now) > 0) return undefined;
  if ((game.clock.outageMs ?? 0) >= maxMs) {
    return finish(game, { winner: null, reason: 'adjudication', note: `No bot worker answered for ${Math.round(maxMs / 1000)} s; a crash does not decide a game.` }, now);
  }
  return next(game, { clock: giveTime(game.timeControl, game.clock, mover, now, stepMs) }, now);
}

/**
 * A bot's answer for `ply`, before it is played: the bot is given back what the platform owes it.
 * `lostMs` (its job taken over after a worker died) less what its flag was already given; and an
 * answer arriving after the flag, the time past it, since a bot's search ends before its flag and
 * only the platform (a queue, a worker, a web process or Redis down) makes it late.
 */
export function creditBotAnswer(game: StoredGame, ply: number, now: number, lostMs: number): StoredGame {
  if (game.status !== 'live' || game.moves.length !== ply) return game;
  const mover = toMove(game);
  if (game.seats[mover].kind !== 'bot') return game;
  const late = -timeLeft(game.timeControl, game.clock, mover, now);
  const owed = Math.max(lostMs - (game.clock.outageMs ?? 0), late);
  return owed > 0 ? { ...game, clock: creditTurn(game.clock, owed) } : game;
}

/** The side to move at `ply` cannot move at all (a bot whose every try failed): it loses on time. */
export function forfeitTurn(game: StoredGame, ply: number, now: number): StoredGame | undefined {
  if (game.status !== 'live' || game.moves.length !== ply) return undefined;
  return finish(game, { winner: opposite(toMove(game)), reason: 'timeout' }, now);
}

export function linkRematch(game: StoredGame, rematchId: string, now: number): StoredGame {
  return game.rematch ? game : next(game, { rematch: rematchId }, now);
}

export function resign(game: StoredGame, color: Color, now: number): ServerResult<StoredGame> {
  if (game.status !== 'live') return refuse('game/not_live', 'Only a game in play can be resigned.');
  return accept(finish(game, { winner: opposite(color), reason: 'resignation' }, now));
}

export function offerDraw(game: StoredGame, color: Color, now: number): ServerResult<StoredGame> {
  if (game.status !== 'live') return refuse('game/not_live', 'Draws are offered in a game in play.');
  if (game.drawOffer === opposite(color)) return acceptDraw(game, color, now);
  return accept(next(game, { drawOffer: color }, now));
}

export function acceptDraw(game: StoredGame, color: Color, now: number): ServerResult<StoredGame> {
  if (game.status !== 'live') return refuse('game/not_live', 'The game is not in play.');
  if (game.drawOffer !== opposite(color)) return refuse('game/no_draw_offer', 'Your opponent has not offered a draw.');
  return accept(finish(game, { winner: null, reason: 'agreement' }, now));
}

export function declineDraw(game: StoredGame, color: Color, now: number): ServerResult<StoredGame> {
  if (game.drawOffer !== opposite(color)) return refuse('game/no_draw_offer', 'Your opponent has not offered a draw.');
  return accept(next(game, { drawOffer: null }, now));
}

export function adjudicate(game: StoredGame, winner: Color | null, note: string, now: number): ServerResult<StoredGame> {
  if (game.status === 'finished') return refuse('game/not_live', 'The game is already over.');
  return accept(finish(game, { winner, reason: 'adjudication', note }, now));
}

/**
 * A seat's connection came (held by the server process `via`) or went. A live seat away past the
 * grace loses (see `abandon`); a seat whose holder moves to another process stays present.
 */
export function setConnected(game: StoredGame, color: Color, connected: boolean, now: number, via: string | null): StoredGame {
  const seat = game.seats[color];
  if (seat.kind === 'bot') return game;
  if (seat.connected === connected && (!connected || seat.connectedVia === via)) return game;
  const updated: StoredSeat = connected
    ? { ...seat, connected, connectedVia: via, awaySince: null }
    : { ...seat, connected, connectedVia: null, awaySince: now };
  return next(game, { seats: { ...game.seats, [color]: updated } }, now);
}

/**
 * A seat an account holds gets a new token (the one made when a tournament seated the account
 * was never sent): the signed-in account takes its seat this way, from any connection.
 */
export function reissueAccountSeat(game: StoredGame, account: string, via: string, now: number): ServerResult<{ game: StoredGame; color: Color; token: string }> {
  const color = COLORS.find((c) => game.seats[c].account && game.seats[c].name?.toLowerCase() === account.toLowerCase());
  if (color === undefined) return refuse('room/not_yours', `No seat of this room is ${account}'s.`);
  const token = newToken();
  const seat: StoredSeat = { ...game.seats[color], tokenHash: hashToken(token), connected: true, connectedVia: via, awaySince: null };
  return accept({ game: next(game, { seats: { ...game.seats, [color]: seat } }, now), color, token });
}

/** The seat's holder process `via` is gone: the seat is away from `now`, unless another holds it since. */
export function presenceLost(game: StoredGame, color: Color, via: string | null, now: number): StoredGame {
  const seat = game.seats[color];
  if (!seat.connected || seat.connectedVia !== via) return game;
  return setConnected(game, color, false, now, null);
}

/** Ends a live game whose seat has been away since `awaySince` and still is; before both sides have moved, aborts it. */
export function abandon(game: StoredGame, color: Color, awaySince: number, now: number): StoredGame | undefined {
  if (game.status !== 'live' || game.seats[color].awaySince !== awaySince) return undefined;
  if (!COLORS.every((c) => hasMoved(game, c))) return abort(game, `The ${color} player left before both sides had moved.`, now);
  return finish(game, { winner: opposite(color), reason: 'abandonment' }, now);
}

/** A challenge turned down: the waiting room whose seat was reserved for `agent` ends with no result. */
export function declineChallenge(game: StoredGame, agent: string, now: number): ServerResult<StoredGame> {
  const reserved = COLORS.find((c) => game.seats[c].kind === 'agent' && agentKey(game.seats[c].reservedFor ?? '') === agentKey(agent) && !isTaken(game.seats[c]));
  if (game.status !== 'waiting' || reserved === undefined) return refuse('challenge/not_found', `Room "${game.id}" holds no open challenge for ${agent}.`);
  return accept(next(game, { status: 'finished', result: { winner: null, reason: 'declined' } }, now));
}

/** A room still waiting for its players, idle since before `idleSince`, closes with no result. */
export function expire(game: StoredGame, idleSince: number, now: number): StoredGame | undefined {
  if (game.status !== 'waiting' || game.updatedAt > idleSince) return undefined;
  return next(game, { status: 'finished', result: { winner: null, reason: 'expired' } }, now);
}

/** A waiting room whose seat is given up opens it again; in play, leaving is resigning. */
export function leave(game: StoredGame, color: Color, now: number): ServerResult<StoredGame> {
  if (game.status === 'live') return resign(game, color, now);
  if (game.status === 'finished') return accept(game);
  const seat = game.seats[color];
  return accept(next(game, { seats: { ...game.seats, [color]: { ...seat, name: null, tokenHash: null, connected: false, connectedVia: null } } }, now));
}

/** The rematch room: the same game and seats, colours swapped, linked from the old one. */
export function rematchOf(game: StoredGame, now: number): StoredGame {
  const swap = (seat: StoredSeat): StoredSeat =>
    seat.kind === 'bot' ? seat : { ...seat, name: null, tokenHash: null, connected: false, connectedVia: null, awaySince: null, account: false, reservedFor: seat.kind === 'agent' ? seat.name : null };
  const fresh = freshGame({ ...game, id: newGameId(), seats: { black: swap(game.seats.white), white: swap(game.seats.black) } }, now);
  return fresh;
}

/** Who holds a seat, when it is someone a rating and a profile can belong to. */
export function seatIdentity(seat: StoredSeat): Identity | null {
  if (seat.name === null) return null;
  if (seat.kind === 'bot') return { kind: 'bot', name: seat.name };
  if (seat.kind === 'agent') return { kind: 'agent', name: seat.name };
  return seat.account ? { kind: 'person', name: seat.name } : null;
}

function seatView(seat: StoredSeat, color: Color): SeatView {
  return { color, kind: seat.kind, name: seat.name ?? (seat.kind === 'agent' ? seat.reservedFor : null), connected: seat.connected, identity: seatIdentity(seat)?.kind ?? null };
}

export function toView(game: StoredGame, now: number): GameView {
  const { rules } = GAMES[game.game];
  const mover = toMove(game);
  return {
    id: game.id,
    game: game.game,
    options: game.options,
    status: game.status,
    seats: { black: seatView(game.seats.black, 'black'), white: seatView(game.seats.white, 'white') },
    start: game.start,
    moves: game.moves,
    moveMs: game.moves.map((_, i) => game.moveMs[i] ?? null),
    position: rules.formatPosition(game.position),
    toMove: mover,
    ply: game.moves.length,
    legal: game.status === 'finished' ? [] : rules.legalMoves(game.position).map((m) => rules.formatMove(m)),
    clock: clockView(game.timeControl, game.clock, mover, now),
    result: game.result,
    drawOffer: game.drawOffer,
    showThinking: game.showThinking,
    createdAt: game.createdAt,
    rematch: game.rematch,
    rated: game.rated,
    ratingChange: game.ratingChange,
  };
}

/** What an agent seat to move is told: the position, the legal moves, the clocks and its deadline. */
export function agentTurnOf(game: StoredGame, deadline: number | null, now: number): AgentTurn {
  const view = toView(game, now);
  return { gameId: game.id, ply: game.moves.length, color: toMove(game), game: game.game, position: view.position, moves: view.moves, legal: view.legal, clock: view.clock, deadline };
}

/** The delta of the move that made `after` from `before`: what every client applies to its view. */
export function movedEvent(before: StoredGame, after: StoredGame, now: number): MovedEvent {
  const mover = moverAt(before.game, before.moves.length);
  const { control: _control, ...clock } = clockView(after.timeControl, after.clock, opposite(mover), now);
  return {
    gameId: after.id,
    ply: before.moves.length,
    move: after.moves.at(-1)!,
    spentMs: after.moveMs.at(-1) ?? null,
    color: mover,
    clock,
    status: after.status,
    result: after.result,
    drawOffer: after.drawOffer,
  };
}

/** A room without its moves, from the game or from its summary (which counts them). */
export function toSummary(game: StoredGame | GameSummary): RoomSummary {
  return {
    id: game.id,
    game: game.game,
    status: game.status,
    seats: { black: seatView(game.seats.black, 'black'), white: seatView(game.seats.white, 'white') },
    ply: 'ply' in game ? game.ply : game.moves.length,
    timeControl: game.timeControl,
    createdAt: game.createdAt,
    result: game.result,
    rated: game.rated,
  };
}
