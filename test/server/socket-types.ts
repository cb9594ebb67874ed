/**
 * Checked by `tsc -p tsconfig.json` (part of `npm test`), never run: the server's Socket.IO is
 * typed by the event maps of `shared/protocol/events.ts`, so each line marked below must fail to
 * compile. Were a map loosened, the mark would be unused and tsc would fail here.
 */
import type { GameView } from '../../shared/protocol/index.js';
import { accept } from '../../server/refuse.js';
import { guard } from '../../server/socket/guard.js';
import type { AdminSocket, AgentSocket, BoardroomServer, PlayerSocket } from '../../server/socket/namespaces.js';
import type { Logger } from '../../server/log.js';
import type { Metrics } from '../../server/metrics.js';

export function misspelt(io: BoardroomServer, player: PlayerSocket, agent: AgentSocket, admin: AdminSocket, view: GameView, log: Logger, metrics: Metrics): void {
  io.to('game:x').emit('state', view);
  // @ts-expect-error an event no client hears
  io.to('game:x').emit('stat', view);
  // @ts-expect-error the wrong payload
  io.to('game:x').emit('state', { id: 'x' });
  // @ts-expect-error agents hear `turn`, players do not
  player.emit('turn', {} as never);
  agent.emit('session:replaced', { message: 'taken over' });
  // @ts-expect-error admins hear pages, not turns
  admin.emit('turn', {} as never);

  const handle = guard(player, 10, log, metrics);
  handle('room:watch', async () => accept({ view }));
  // @ts-expect-error no such request
  handle('room:wach', async () => accept({ view }));
  // @ts-expect-error the acknowledgement of room:watch carries a view
  handle('room:watch', async () => accept({ rooms: [] }));
  const handleAgent = guard(agent, 10, log, metrics);
  handleAgent('hello', async () => accept({ agent: 'a' }));
  // @ts-expect-error `hello` is the agent namespace's alone
  handle('hello', async () => accept({ agent: 'a' }));
}
