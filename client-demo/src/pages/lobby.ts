import './lobby.css';
import { opposite } from '../../../shared/color.js';
import { firstMover } from '../../../shared/games.js';
import { CreateRoomSchema, type LobbyFilter, type RoomSummary, type SeatView } from '../../../shared/protocol/index.js';
import { GAME_IDS, type GameId } from '../../../shared/rules.js';
import { account } from '../account.js';
import { tournamentListCard } from '../components/tournament-list.js';
import { quickPairCard } from '../components/quick-pair.js';
import { RoomPages } from '../components/room-pages.js';
import { focusedControl, roving } from '../components/roving.js';
import { Disposer, h, replace, toast } from '../dom.js';
import { ago, matchup, outcomeText, seatName, timeControlText } from '../format.js';
import { CLIENT_GAMES } from '../games/index.js';
import { getJson, net } from '../net.js';
import { link, navigate } from '../router.js';
import { keepSeat, playerName, setPlayerName } from '../storage.js';

interface BotEntry {
  readonly name: string;
  readonly budgetMs: number;
  readonly description: string;
}
type Roster = Record<GameId, readonly BotEntry[]>;

let rosterCache: Promise<Roster> | undefined;
function roster(): Promise<Roster> {
  rosterCache ??= getJson<{ bots: Roster }>('/api/bots').then((r) => r.bots);
  rosterCache.catch(() => (rosterCache = undefined));
  return rosterCache;
}

type SeatChoice = string; // 'human' | 'agent' | 'bot:<name>'
type TimeKind = 'none' | 'per-move' | 'bank';

const capitalFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The lobby: make a room, and the open, live and finished rooms in pages, filtered, kept current by `rooms:changed`. */
export function lobbyPage(root: HTMLElement): () => void {
  const conn = net();
  const disposer = new Disposer();

  // ——— the form's state ———
  let game: GameId = 'othello';
  const seats: Record<'black' | 'white', SeatChoice> = { black: 'human', white: 'bot:engine-2' };
  let sit: 'black' | 'white' | 'random' | 'watch' = 'black';
  let time: TimeKind = 'per-move';
  let bots: Roster | null = null;

  const nameInput = h('input', { type: 'text', id: 'player-name', maxlength: 40, value: playerName(), autocomplete: 'nickname', 'data-testid': 'name' });
  nameInput.addEventListener('change', () => setPlayerName(nameInput.value));
  const moveSeconds = h('input', { type: 'number', min: 1, max: 3600, value: 30, 'aria-label': 'seconds a move', 'data-testid': 'move-seconds' });
  const bankMinutes = h('input', { type: 'number', min: 1, max: 360, step: 'any', value: 5, 'aria-label': 'minutes', 'data-testid': 'bank-minutes' });
  const incSeconds = h('input', { type: 'number', min: 0, max: 600, value: 3, 'aria-label': 'increment seconds', 'data-testid': 'bank-increment' });
  const showThinking = h('input', { type: 'checkbox', checked: true, 'data-testid': 'show-thinking' });
  /** A checkbox for each game's room option (Gomoku's exact five), kept across the form's renders. */
  const optionBoxes: Partial<Record<GameId, HTMLInputElement>> = {};
  for (const id of GAME_IDS) {
    const option = CLIENT_GAMES[id].option;
    if (option) optionBoxes[id] = h('input', { type: 'checkbox', 'data-testid': option.testid });
  }
  const rated = h('input', { type: 'checkbox', 'data-testid': 'rated' });
  let signedIn = false;
  const agentNames = { black: h('input', { type: 'text', placeholder: 'any agent', maxlength: 40, 'aria-label': 'agent name' }), white: h('input', { type: 'text', placeholder: 'any agent', maxlength: 40, 'aria-label': 'agent name' }) };

  const form = h('form', { class: 'card create', 'data-testid': 'create-form', novalidate: true });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void create();
  });

  const renderForm = (): void => {
    const list = bots?.[game] ?? [];
    for (const c of ['black', 'white'] as const) {
      if (seats[c].startsWith('bot:') && list.length > 0 && !list.some((b) => `bot:${b.name}` === seats[c])) seats[c] = `bot:${list.find((b) => b.name === 'engine-2')?.name ?? list[0]!.name}`;
    }
    const humanSeats = (['black', 'white'] as const).filter((c) => seats[c] === 'human');
    if (sit !== 'watch' && humanSeats.length === 0) sit = 'watch';
    if ((sit === 'black' || sit === 'white') && seats[sit] !== 'human') sit = humanSeats[0] ?? 'watch';
    if (sit === 'watch' && humanSeats.length > 0 && !watchChosen) sit = humanSeats[0]!;

    const first = firstMover(game);
    const seatOrder = [first, opposite(first)];
    const seatRow = (color: 'black' | 'white') => {
      const select = h(
        'select',
        { 'data-testid': `seat-${color}`, 'aria-label': `${color} seat` },
        h('option', { value: 'human', selected: seats[color] === 'human' }, 'Human'),
        h('option', { value: 'agent', selected: seats[color] === 'agent' }, 'Agent (outside bot)'),
        h(
          'optgroup',
          { label: 'Bots' },
          ...list.map((b) => h('option', { value: `bot:${b.name}`, selected: seats[color] === `bot:${b.name}`, title: b.description }, b.name)),
        ),
      );
      select.addEventListener('change', () => {
        seats[color] = select.value;
        if (select.value === 'human') sit = color;
        renderForm();
      });
      const bot = seats[color].startsWith('bot:') ? list.find((b) => `bot:${b.name}` === seats[color]) : undefined;
      return h(
        'div',
        { class: 'seat-row' },
        h(
          'span',
          { class: 'seat-label' },
          CLIENT_GAMES[game].token(color),
          h('span', null, color === 'black' ? 'Black' : 'White', color === first ? h('small', null, 'moves first') : null),
        ),
        select,
        seats[color] === 'agent' ? agentNames[color] : null,
        bot ? h('span', { class: 'seat-desc' }, capitalFirst(bot.description)) : null,
      );
    };

    const seg = <T extends string>(name: string, value: T, options: [T, string, boolean?][], onPick: (v: T) => void) =>
      roving(h(
        'div',
        { class: 'segmented', role: 'radiogroup', 'data-testid': name },
        ...options.map(([v, label, disabled]) =>
          h('button', { type: 'button', class: v === value ? 'on' : '', role: 'radio', 'aria-checked': String(v === value), 'data-value': v, disabled: disabled === true, onclick: () => onPick(v) }, label),
        ),
      ), true);

    const focused = focusedControl(form);
    replace(
      form,
      h('h2', null, 'New game'),
      roving(h(
        'div',
        { class: 'presets', role: 'toolbar', 'aria-label': 'Quick set-up' },
        h('span', { class: 'muted' }, 'Quick set-up:'),
        h('button', { type: 'button', class: 'chip', 'data-testid': 'preset-bot', onclick: () => preset('human', 'bot:engine-2', 'black') }, 'You vs a bot'),
        h('button', { type: 'button', class: 'chip', 'data-testid': 'preset-human', onclick: () => preset('human', 'human', 'random') }, 'You vs a friend'),
        h('button', { type: 'button', class: 'chip', 'data-testid': 'preset-bots', onclick: () => preset('bot:engine-2', 'bot:engine-3', 'watch') }, 'Bot vs bot'),
      ), false),
      roving(h(
        'div',
        { class: 'game-picker', role: 'radiogroup', 'data-testid': 'game-picker', 'aria-label': 'game' },
        ...GAME_IDS.map((id) =>
          h(
            'button',
            { type: 'button', class: `game-tile${id === game ? ' on' : ''}`, 'data-value': id, role: 'radio', 'aria-checked': String(id === game), onclick: () => ((game = id), renderForm()) },
            h('span', { class: `game-icon big icon-${id}` }),
            h('b', null, CLIENT_GAMES[id].title),
            h('small', null, CLIENT_GAMES[id].blurb),
          ),
        ),
      ), true),
      h('div', { class: 'field' }, h('label', null, 'Seats'), h('div', { class: 'seats' }, ...seatOrder.map(seatRow))),
      h(
        'div',
        { class: 'field' },
        h('label', null, 'You play'),
        seg(
          'sit',
          sit,
          [
            ['black', 'Black', seats.black !== 'human'],
            ['white', 'White', seats.white !== 'human'],
            ['random', 'Random', humanSeats.length === 0],
            ['watch', 'Just watch', false],
          ],
          (v) => {
            sit = v;
            watchChosen = v === 'watch';
            renderForm();
          },
        ),
      ),
      h(
        'div',
        { class: 'field' },
        h('label', null, 'Clock'),
        seg(
          'time',
          time,
          [
            ['none', 'None'],
            ['per-move', 'Per move'],
            ['bank', 'Bank + increment'],
          ],
          (v) => ((time = v), renderForm()),
        ),
        time === 'per-move' ? h('div', { class: 'inline-inputs' }, moveSeconds, h('span', null, 'seconds a move')) : null,
        time === 'bank' ? h('div', { class: 'inline-inputs' }, bankMinutes, h('span', null, 'minutes +'), incSeconds, h('span', null, 'seconds a move')) : null,
      ),
      h(
        'div',
        { class: 'field checks' },
        h('label', { class: 'check' }, showThinking, 'Show the bots’ thinking to spectators'),
        optionBoxes[game] ? h('label', { class: 'check' }, optionBoxes[game], CLIENT_GAMES[game].option?.label) : null,
        signedIn ? h('label', { class: 'check', title: 'Both players need an account, an agent or a bot' }, rated, 'Rated (every person seated needs an account)') : null,
      ),
      h('div', { class: 'field' }, h('label', { for: 'player-name' }, 'Your name'), nameInput),
      h('button', { type: 'submit', class: 'btn primary wide', 'data-testid': 'create' }, sit === 'watch' ? 'Create and watch' : 'Create room'),
    );
    if (focused) form.querySelector<HTMLElement>(focused)?.focus();
  };
  let watchChosen = false;
  const preset = (black: SeatChoice, white: SeatChoice, who: typeof sit) => {
    seats.black = black;
    seats.white = white;
    sit = who;
    watchChosen = who === 'watch';
    renderForm();
  };

  const seatSpec = (color: 'black' | 'white') => {
    const choice = seats[color];
    if (choice === 'human') return { kind: 'human' as const };
    if (choice === 'agent') {
      const name = agentNames[color].value.trim();
      return name ? { kind: 'agent' as const, agent: name } : { kind: 'agent' as const };
    }
    return { kind: 'bot' as const, bot: choice.slice(4) };
  };

  const create = async (): Promise<void> => {
    setPlayerName(nameInput.value);
    const timeControl =
      time === 'none'
        ? { kind: 'none' }
        : time === 'per-move'
          ? { kind: 'per-move', moveMs: Math.round(Number(moveSeconds.value) * 1000) }
          : { kind: 'bank', initialMs: Math.round(Number(bankMinutes.value) * 60_000), incrementMs: Math.round(Number(incSeconds.value) * 1000) };
    const payload = {
      game,
      options: optionBoxes[game]?.checked ? (CLIENT_GAMES[game].option?.options ?? {}) : {},
      timeControl,
      seats: { black: seatSpec('black'), white: seatSpec('white') },
      ...(sit === 'watch' ? {} : { sit: { name: playerName(), color: sit } }),
      showThinking: showThinking.checked,
      rated: signedIn && rated.checked,
    };
    const checked = CreateRoomSchema.safeParse(payload); // the server's own schema, checked here first
    if (!checked.success) {
      const issue = checked.error.issues[0];
      toast(`Check the form: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(), 'error');
      return;
    }
    const button = form.querySelector<HTMLButtonElement>('[data-testid="create"]');
    if (button) button.disabled = true;
    const ack = await conn.ask('room:create', checked.data);
    if (button) button.disabled = false;
    if (!ack.ok) {
      toast(ack.error.message, 'error');
      return;
    }
    if (ack.seat) keepSeat(ack.gameId, { token: ack.seat.token, color: ack.seat.color });
    navigate(`/game/${ack.gameId}`);
  };

  // ——— the rooms ———
  const openHumanSeat = (r: RoomSummary) => (['black', 'white'] as const).find((c) => r.seats[c].kind === 'human' && !r.seats[c].name);

  const roomItem = (r: RoomSummary): HTMLElement => {
    const seatChip = (seat: SeatView) => h('span', { class: `seat-chip${seat.name ? '' : ' open'}` }, CLIENT_GAMES[r.game].token(seat.color), seatName(seat), seat.kind !== 'human' ? h('em', null, seat.kind) : null);
    let action: HTMLElement;
    if (r.status === 'waiting') {
      const open = openHumanSeat(r);
      action = open
        ? h('button', { class: 'btn primary small', type: 'button', 'data-testid': 'join', onclick: () => void join(r.id) }, 'Join')
        : link(`/game/${r.id}`, 'Watch', 'btn small');
    } else if (r.status === 'live') action = link(`/game/${r.id}`, 'Watch', 'btn small', 'watch');
    else action = link(`/replay/${r.id}`, 'Replay', 'btn small', 'replay');
    const first = r.seats[firstMover(r.game)];
    const second = r.seats[opposite(firstMover(r.game))];
    const meta =
      r.status === 'finished' && r.result
        ? `${outcomeText(r.result)} · ${r.ply} moves · ${ago(r.createdAt)}`
        : r.status === 'live'
          ? `move ${r.ply + 1} · ${timeControlText(r.timeControl)} · ${ago(r.createdAt)}`
          : `${timeControlText(r.timeControl)} · ${ago(r.createdAt)}`;
    return h(
      'li',
      { class: 'room', 'data-room': r.id, 'data-status': r.status, title: matchup(r.seats, r.game) },
      h('span', { class: `game-icon icon-${r.game}` }),
      h('div', { class: 'room-main' }, h('div', { class: 'room-seats' }, seatChip(first), h('span', { class: 'vs' }, 'vs'), seatChip(second)), h('div', { class: 'room-meta' }, `${CLIENT_GAMES[r.game].title} · ${meta}`)),
      action,
    );
  };

  const sections = {
    waiting: new RoomPages(conn, 'waiting', 60, roomItem, 'No open rooms. Make one!'),
    live: new RoomPages(conn, 'live', 30, roomItem, 'No games in play right now.'),
    finished: new RoomPages(conn, 'finished', 12, roomItem, 'No finished games yet.'),
  };
  const filter: LobbyFilter = {};
  const showAll = (): void => {
    for (const section of Object.values(sections)) void section.show({ ...filter });
  };
  const filterSelect = (testid: string, label: string, options: [string, string][], pick: (value: string) => void) => {
    const select = h('select', { 'data-testid': testid, 'aria-label': label }, ...options.map(([value, text]) => h('option', { value }, text)));
    select.addEventListener('change', () => {
      pick(select.value);
      showAll();
    });
    return select;
  };
  const filters = h(
    'div',
    { class: 'card room-filters', 'data-testid': 'room-filters' },
    filterSelect('filter-game', 'game', [['', 'All games'], ...GAME_IDS.map((g): [string, string] => [g, CLIENT_GAMES[g].title])], (v) => (filter.game = v === '' ? undefined : (v as GameId))),
    filterSelect('filter-rated', 'rated', [['', 'Rated or casual'], ['rated', 'Rated'], ['casual', 'Casual']], (v) => (filter.rated = v === '' ? undefined : v === 'rated')),
    filterSelect('filter-vs', 'opponent', [['', 'Any opponent'], ['human', 'Vs a person'], ['bot', 'Vs a bot'], ['agent', 'Vs an agent']], (v) => (filter.vs = v === '' ? undefined : (v as LobbyFilter['vs']))),
  );
  const section = (title: string, pages: RoomPages) => h('section', { class: 'card' }, h('h2', null, title, pages.count), pages.list, pages.pager);

  const join = async (gameId: string): Promise<void> => {
    setPlayerName(nameInput.value);
    const ack = await conn.ask('room:join', { gameId, name: playerName(), color: 'any' });
    if (!ack.ok) return void toast(ack.error.message, 'error');
    keepSeat(gameId, { token: ack.seat.token, color: ack.seat.color });
    navigate(`/game/${gameId}`);
  };

  const page = h(
    'div',
    { class: 'page page-lobby' },
    h(
      'header',
      { class: 'hero' },
      h('h1', null, 'Play Othello, Gomoku and MiniChess', h('br'), h('span', { class: 'accent' }, 'with people and bots.')),
      h('p', { class: 'muted' }, 'Make a room, invite a friend with its link, take on the engine, or watch two bots think out loud.'),
    ),
    h(
      'div',
      { class: 'lobby-grid' },
      form,
      h(
        'div',
        { class: 'room-lists' },
        quickPairCard(disposer),
        tournamentListCard(disposer),
        filters,
        section('Open rooms ', sections.waiting),
        section('Live now ', sections.live),
        section('Recently finished ', sections.finished),
      ),
    ),
  );
  replace(root, page);
  document.title = 'Boardroom — Othello, Gomoku, MiniChess';
  renderForm();
  void account().then((me) => {
    signedIn = me !== null;
    renderForm();
  });
  void roster()
    .then((r) => {
      bots = r;
      renderForm();
    })
    .catch(() => toast('Could not load the bot roster.', 'error'));

  disposer.add(
    conn.on('rooms:changed', (summary) => {
      for (const pages of Object.values(sections)) pages.apply(summary);
    }),
  );
  disposer.add(conn.onReconnect(() => Object.values(sections).forEach((pages) => void pages.reload())));
  disposer.interval(() => Object.values(sections).forEach((pages) => pages.render()), 30_000); // refresh the "min ago"
  showAll();
  return () => disposer.dispose();
}
