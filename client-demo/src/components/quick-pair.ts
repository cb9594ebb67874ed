import './quick-pair.css';
import type { SeekPaired, TimeControl } from '../../../shared/protocol/index.js';
import { GAME_IDS, type GameId } from '../../../shared/rules.js';
import { account, onAccount } from '../account.js';
import { Disposer, h, replace, toast } from '../dom.js';
import { timeControlText } from '../format.js';
import { CLIENT_GAMES } from '../games/index.js';
import { net } from '../net.js';
import { link, navigate } from '../router.js';
import { keepSeat, playerName } from '../storage.js';

/** How long a seeker waits before it is offered a bot of about its rating. */
const BOT_OFFER_AFTER_MS = 5000;
const CLOCKS: TimeControl[] = [
  { kind: 'per-move', moveMs: 10_000 },
  { kind: 'per-move', moveMs: 30_000 },
  { kind: 'bank', initialMs: 180_000, incrementMs: 2000 },
  { kind: 'bank', initialMs: 600_000, incrementMs: 5000 },
];

/**
 * Quick pairing: pick a game and a clock, and the server pairs you with the waiting player
 * nearest your rating (rated when signed in); after a few seconds a bot of about your rating
 * can be taken instead.
 */
export function quickPairCard(disposer: Disposer): HTMLElement {
  const conn = net();
  const card = h('section', { class: 'card quick-pair', 'data-testid': 'quick-pair' });
  const gameSelect = h('select', { 'data-testid': 'seek-game', 'aria-label': 'game' }, ...GAME_IDS.map((g) => h('option', { value: g }, CLIENT_GAMES[g].title)));
  const clockSelect = h('select', { 'data-testid': 'seek-clock', 'aria-label': 'clock' }, ...CLOCKS.map((c, i) => h('option', { value: String(i), selected: i === 1 }, timeControlText(c))));
  const rated = h('input', { type: 'checkbox', 'data-testid': 'seek-rated' });
  const ratedLabel = h('label', { class: 'check' }, rated, 'Rated');
  let seekId: string | null = null;
  let since = 0;
  /** Pairings heard while the seek's answer is on its way: one made at once comes before it. */
  let early: SeekPaired[] | null = null;

  const paired = (p: SeekPaired): void => {
    if (early) return void early.push(p);
    if (p.seekId !== seekId) return;
    seekId = null;
    keepSeat(p.gameId, { token: p.seat.token, color: p.seat.color });
    navigate(`/game/${p.gameId}`);
  };

  const idle = (): void => {
    replace(
      card,
      h('h2', null, 'Quick pairing'),
      h('div', { class: 'inline-inputs' }, gameSelect, clockSelect, ratedLabel),
      h('button', { type: 'button', class: 'btn primary wide', 'data-testid': 'seek', onclick: () => void seek() }, 'Find an opponent'),
    );
  };

  const waiting = (): void => {
    const elapsed = h('span', { 'data-testid': 'seek-elapsed' }, '0:00');
    const botOffer = h('button', { type: 'button', class: 'btn', hidden: true, 'data-testid': 'seek-bot', onclick: () => void botInstead() }, 'Play a bot of my rating instead');
    replace(
      card,
      h('h2', null, 'Quick pairing'),
      h('p', { 'data-testid': 'seek-waiting' }, `Looking for ${CLIENT_GAMES[gameSelect.value as GameId].title} opponent… `, elapsed),
      h('div', { class: 'form-actions' }, botOffer, h('button', { type: 'button', class: 'btn', 'data-testid': 'seek-cancel', onclick: () => void cancel() }, 'Cancel')),
    );
    const tick = (): void => {
      if (seekId === null || !card.isConnected) return;
      elapsed.textContent = formatElapsed(Date.now() - since);
      botOffer.hidden = Date.now() - since < BOT_OFFER_AFTER_MS;
    };
    tick();
    disposer.interval(tick, 500);
  };

  const seek = async (): Promise<void> => {
    early = [];
    const ack = await conn.ask('seek', { game: gameSelect.value, timeControl: CLOCKS[Number(clockSelect.value)], rated: rated.checked, name: playerName() });
    const heard = early;
    early = null;
    if (!ack.ok) return void toast(ack.error.message, 'error');
    seekId = ack.seekId;
    since = Date.now();
    waiting();
    const pairing = heard.find((p) => p.seekId === ack.seekId);
    if (pairing) paired(pairing);
  };

  const cancel = async (): Promise<void> => {
    if (seekId) await conn.ask('seek:cancel', { seekId });
    seekId = null;
    idle();
  };

  const botInstead = async (): Promise<void> => {
    if (!seekId) return;
    const ack = await conn.ask('seek:bot', { seekId });
    if (!ack.ok) return void toast(ack.error.message, 'error');
    paired(ack);
  };

  disposer.add(conn.on('seek:paired', paired));
  disposer.add(() => void (seekId && conn.ask('seek:cancel', { seekId })));
  disposer.add(
    onAccount((me) => {
      rated.disabled = !me;
      rated.checked = !!me;
      ratedLabel.title = me ? 'Your rating changes when the game ends' : 'Sign in to play rated games';
      ratedLabel.querySelector('.hint')?.remove();
      if (!me) ratedLabel.append(h('span', { class: 'hint muted' }, ' (', link('/account', 'sign in'), ')'));
    }),
  );
  void account();
  idle();
  return card;
}

function formatElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
