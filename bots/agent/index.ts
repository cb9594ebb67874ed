/**
 * The agent SDK (`boardroom/agent`): a typed client of the `/agent` namespace of PROTOCOL.md.
 *
 *   const agent = await connectAgent({ url: 'http://localhost:3000', token });
 *   agent.onTurn(async (turn, signal) => turn.legal[0]);
 *   await agent.challenge({ game: 'othello', opponent: { kind: 'bot', bot: 'engine-1' } });
 */
export { connectAgent, AgentError, type Agent, type AgentEvents, type ConnectOptions, type TurnHandler } from './agent.js';
export type { AgentTurn, ChallengeOffer, GameLost, GameResult, GameView, RoomSummary, TournamentDelta, TournamentPaired, TournamentSummary, TournamentView, StandingRow, PairingView } from '../../shared/protocol/index.js';
