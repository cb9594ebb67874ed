import type { AgentClientToServerEvents, ClientToServerEvents } from '../../shared/protocol/index.js';
import { accept, refuse, type ServerResult } from '../refuse.js';
import type { guard } from './guard.js';
import type { AgentSocket, PlayerSocket } from './namespaces.js';
import { viewOf, type Asker, type TournamentEntries } from '../tournaments/entries.js';
import type { TournamentRunner } from '../tournaments/runner.js';
import { entrantRoom, TOURNAMENT_LOBBY, tournamentRoom } from './tournament-notifier.js';

type PlayerHandle = ReturnType<typeof guard<ClientToServerEvents>>;
type AgentHandle = ReturnType<typeof guard<AgentClientToServerEvents>>;
const needsAccount = refuse('auth/required', 'Sign in to take part in tournaments.');

/** The default namespace's tournament requests; `signedIn` is the account the connection acts as now. */
export function tournamentPlayerHandlers(handle: PlayerHandle, socket: PlayerSocket, entries: TournamentEntries, runner: TournamentRunner, signedIn: () => Promise<string | undefined>): void {
  handle('tournaments:list', async (payload) => {
    await socket.join(TOURNAMENT_LOBBY);
    return entries.list(payload);
  });
  handle('tournament:follow', async (payload) => {
    const found = await entries.view(payload);
    if (!found.ok) return found;
    await socket.join(tournamentRoom(found.value.tournament.id));
    const account = await signedIn();
    if (account) await socket.join(entrantRoom(account));
    return found;
  });
  handle('tournament:unfollow', async (payload) => {
    const found = await entries.find(payload);
    if (found.ok) await socket.leave(tournamentRoom(found.value.id));
    return found.ok ? accept({}) : found;
  });
  /** A request made as the signed-in account, refused to a guest. */
  const asPerson =
    <T>(run: (payload: unknown, by: Asker) => Promise<ServerResult<T>>) =>
    async (payload: unknown): Promise<ServerResult<T>> => {
      const account = await signedIn();
      return account ? run(payload, { kind: 'person', name: account }) : needsAccount;
    };
  handle('tournament:create', asPerson((payload, by) => entries.create(payload, by)));
  handle('tournament:join', async (payload) => {
    const account = await signedIn();
    if (!account) return needsAccount;
    await socket.join(entrantRoom(account));
    return entries.join(payload, { kind: 'person', name: account });
  });
  handle('tournament:withdraw', asPerson((payload, by) => entries.withdraw(payload, by)));
  handle('tournament:start', asPerson((payload, by) => entries.start(payload, by)));
  handle('tournament:bots', asPerson((payload, by) => entries.addBots(payload, by)));
  handle('tournament:seat', async (payload) => {
    const account = await signedIn();
    if (!account) return needsAccount;
    const found = await entries.find(payload);
    return found.ok ? runner.seatOfPerson(found.value, account) : found;
  });
}

/** The agent namespace's: an agent enters, withdraws, follows; its games come as `turn`s. */
export function tournamentAgentHandlers(handle: AgentHandle, socket: AgentSocket, entries: TournamentEntries, agent: string, instance: string): void {
  handle('tournaments:list', (payload) => entries.list(payload));
  handle('tournament:follow', async (payload) => {
    const found = await entries.find(payload);
    if (!found.ok) return found;
    await socket.join(tournamentRoom(found.value.id));
    return accept({ tournament: viewOf(found.value) });
  });
  handle('tournament:join', async (payload) => {
    const joined = await entries.join(payload, { kind: 'agent', name: agent, instance });
    if (joined.ok) await socket.join(tournamentRoom(joined.value.tournament.id));
    return joined;
  });
  handle('tournament:withdraw', (payload) => entries.withdraw(payload, { kind: 'agent', name: agent, instance }));
}
