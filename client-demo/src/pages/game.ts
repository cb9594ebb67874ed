import type { Color } from '../../../shared/color.js';
import type { GameView } from '../../../shared/protocol/index.js';
import { account } from '../account.js';
import { GameScreen } from '../components/game-screen.js';
import { askName } from '../components/name-prompt.js';
import { Disposer, h, replace, toast } from '../dom.js';
import { net } from '../net.js';
import { link, navigate } from '../router.js';
import { forgetSeat, keepSeat, playerName, seatFor } from '../storage.js';

/**
 * `/game/<id>`: resumes the seat whose token this browser keeps for the game, else watches.
 * After a dropped connection comes back it resumes (or watches) again.
 */
export function gamePage(root: HTMLElement, gameId: string): () => void {
  const conn = net();
  const disposer = new Disposer();
  let screen: GameScreen | null = null;
  let seat: { color: Color; token: string } | null = null;
  /** The spectator count the server sent last, for a screen made after it came. */
  let spectators: number | null = null;
  const container = h('div', { class: 'page page-game' }, h('div', { class: 'loading' }, h('span', { class: 'spinner' }), 'Opening the room…'));
  replace(root, container);

  const refusal = (ack: { ok: false; error: { message: string } }) => toast(ack.error.message, 'error');
  const seatAction = (event: 'resign' | 'draw:offer' | 'draw:accept' | 'draw:decline') => async () => {
    if (!seat) return;
    const ack = await conn.ask(event, { gameId, token: seat.token });
    if (!ack.ok) refusal(ack);
  };

  const show = (view: GameView): void => {
    if (!screen) {
      screen = new GameScreen(gameId, view.game, {
        move: async (ply, move) => {
          if (!seat) return { ok: false, message: 'You hold no seat here.' };
          const ack = await conn.ask('move', { gameId, token: seat.token, ply, move });
          if (ack.ok) {
            if (!screen?.applyMoved(ack.moved)) void sync();
            return { ok: true };
          }
          if (ack.error.code === 'move/stale_ply') {
            // Another tab or a late event: the game is further on than this page showed.
            void attach();
            return { ok: false, message: 'The game had moved on (another tab?); the board now shows where it stands.' };
          }
          return { ok: false, message: ack.error.message };
        },
        resign: seatAction('resign'),
        offerDraw: seatAction('draw:offer'),
        acceptDraw: seatAction('draw:accept'),
        declineDraw: seatAction('draw:decline'),
        rematch: async () => {
          if (!seat) return;
          const ack = await conn.ask('rematch', { gameId, token: seat.token });
          if (!ack.ok) return refusal(ack);
          keepSeat(ack.gameId, { token: ack.seat.token, color: ack.seat.color });
          navigate(`/game/${ack.gameId}`);
        },
        leave: async () => {
          if (!seat) return;
          const ack = await conn.ask('room:leave', { gameId, token: seat.token });
          if (!ack.ok) return refusal(ack);
          forgetSeat(gameId);
          navigate('/');
        },
        takeSeat: async (color) => {
          // A guest says under which name (a signed-in player sits as the account, whatever is sent).
          const name = (await account()) ? playerName() : await askName();
          if (name === null) return;
          const ack = await conn.ask('room:join', { gameId, name, color });
          if (!ack.ok) return refusal(ack);
          seat = { color: ack.seat.color, token: ack.seat.token };
          keepSeat(gameId, seat);
          screen?.setSeat(seat.color);
          screen?.setView(ack.view);
        },
        back: { label: 'Lobby', go: () => navigate('/') },
      });
      screen.setSeat(seat?.color ?? null);
      if (spectators !== null) screen.setSpectators(spectators);
      replace(container, screen.el);
      disposer.add(() => screen?.destroy());
      disposer.add(conn.onState((state) => screen?.setConnection(state)));
    }
    screen.setView(view);
  };

  const attach = async (): Promise<void> => {
    const kept = seatFor(gameId);
    if (kept) {
      const ack = await conn.ask('room:resume', { gameId, token: kept.token });
      if (ack.ok) {
        seat = { color: ack.seat.color, token: kept.token };
        screen?.setSeat(seat.color);
        show(ack.view);
        screen?.setSeat(seat.color);
        return;
      }
      if (ack.error.code === 'seat/bad_token' || ack.error.code === 'room/not_found') forgetSeat(gameId);
      else return refusal(ack);
    }
    seat = null;
    const ack = await conn.ask('room:watch', { gameId });
    if (ack.ok) {
      show(ack.view);
      return;
    }
    if (ack.error.code === 'room/not_found') {
      replace(
        container,
        h(
          'div',
          { class: 'empty-state' },
          h('h1', { class: 'page-title' }, 'No such room'),
          h('p', null, `There is no room “${gameId}” on this server.`),
          link('/', 'Back to the lobby', 'btn primary'),
        ),
      );
    } else refusal(ack);
  };

  /** The whole view again, after a missed move event. */
  const sync = async (): Promise<void> => {
    const ack = await conn.ask('room:sync', { gameId });
    if (ack.ok) screen?.setView(ack.view);
  };
  disposer.add(conn.on('moved', (e) => e.gameId === gameId && screen && !screen.applyMoved(e) && void sync()));
  disposer.add(conn.on('state', (v) => v.id === gameId && screen?.setView(v)));
  disposer.add(conn.on('ended', (e) => e.gameId === gameId && screen?.setView(e.view)));
  disposer.add(conn.on('thinking', (t) => t.gameId === gameId && screen?.setThinking(t)));
  disposer.add(
    conn.on('spectators', (e) => {
      if (e.gameId !== gameId) return;
      spectators = e.count;
      screen?.setSpectators(e.count);
    }),
  );
  disposer.add(
    conn.on('game:lost', (e) => {
      if (e.gameId !== gameId) return;
      forgetSeat(gameId);
      screen?.destroy();
      screen = null;
      replace(container, h('div', { class: 'empty-state', 'data-testid': 'game-lost' }, h('h1', { class: 'page-title' }, 'This game was lost'), h('p', null, e.message), link('/', 'Back to the lobby', 'btn primary')));
    }),
  );
  disposer.add(conn.onReconnect(() => void attach()));
  void attach().then(() => screen?.focusBoard());
  return () => {
    disposer.dispose();
    void conn.ask('room:unwatch', { gameId });
  };
}
