import './replay.css';
import type { Color } from '../../../shared/color.js';
import { firstMover, GAMES } from '../../../shared/games.js';
import type { GameResult, TimeControl } from '../../../shared/protocol/index.js';
import type { GameId, GameOptions } from '../../../shared/rules.js';
import { BoardView } from '../boards/board-view.js';
import { analysisPanel } from '../components/analysis.js';
import { aspectOf } from '../components/game-screen.js';
import { countBadge, downloadLink, PositionText, resultDetail, showPanel } from '../components/game-extras.js';
import { moveTimesPanel } from '../components/move-times.js';
import { Disposer, h, replace, s, typingInField } from '../dom.js';
import { capital, resultHeadline } from '../format.js';
import { CLIENT_GAMES } from '../games/index.js';
import { positionsOf, snapshot } from '../model.js';
import { getJson } from '../net.js';
import { link } from '../router.js';

interface GameRecord {
  readonly id: string;
  readonly game: GameId;
  readonly options: GameOptions;
  readonly status: 'waiting' | 'live' | 'finished';
  readonly players: Record<Color, { kind: string; name: string | null }>;
  readonly result: GameResult | null;
  readonly start: string;
  readonly moves: readonly string[];
  /** Each move's time in ms (null: unknown); absent from an older server. */
  readonly moveMs?: readonly (number | null)[];
  readonly timeControl?: TimeControl;
  readonly createdAt: number;
}

/** `/replay/<id>`: a game step by step from its record (first, previous, next, last; arrow keys). */
export function replayPage(root: HTMLElement, gameId: string): () => void {
  const disposer = new Disposer();
  const page = h('div', { class: 'page page-replay' }, h('div', { class: 'loading' }, h('span', { class: 'spinner' }), 'Loading the game…'));
  replace(root, page);

  void getJson<GameRecord>(`/api/games/${encodeURIComponent(gameId)}`)
    .then((record) => build(record))
    .catch((error: Error) =>
      replace(page, h('div', { class: 'empty-state' }, h('h1', { class: 'page-title' }, 'No such game'), h('p', null, error.message), link('/', 'Back to the lobby', 'btn primary'))),
    );

  function build(record: GameRecord): void {
    const positions = positionsOf(record.game, record.options, record.start, record.moves);
    const last = positions.length - 1;
    let step = last;
    let timer: number | null = null;
    const board = new BoardView(record.game);
    const counter = h('span', { class: 'step-counter', 'data-testid': 'step' });
    const slider = h('input', { type: 'range', min: 0, max: last, value: step, 'aria-label': 'move', class: 'slider', 'data-testid': 'slider' });
    const list = h('ol', { class: 'move-list clickable', 'data-testid': 'moves' });
    const kind = CLIENT_GAMES[record.game];
    const bottom: Color = firstMover(record.game);
    const bar = (color: Color) => {
      const p = record.players[color];
      return h(
        'div',
        { class: 'player-bar', 'data-color': color },
        h('span', { class: 'token' }, kind.token(color)),
        h('span', { class: 'who' }, h('span', { class: 'name' }, p.name ?? '—'), p.kind !== 'human' ? h('span', { class: `badge badge-${p.kind}` }, p.kind) : null),
        countBadge(record.game, positions[step]!, color),
      );
    };
    const top = bar(bottom === 'black' ? 'white' : 'black');
    const bot = bar(bottom);
    const panel = h('div', { class: 'material-wrap', hidden: true });
    const positionText = new PositionText();
    const playButton = h('button', { class: 'btn', type: 'button', 'data-testid': 'autoplay', onclick: () => toggleAuto() }, 'Play');

    const go = (to: number): void => {
      step = Math.max(0, Math.min(last, to));
      const snap = snapshot(record.game, record.options, positions[step]!, record.moves.slice(0, step));
      board.update({ snap, playable: false, orientation: bottom });
      counter.textContent = step === 0 ? `start · ${last} moves` : `move ${step} of ${last}`;
      slider.value = String(step);
      for (const color of ['black', 'white'] as const) {
        const count = countBadge(record.game, positions[step]!, color);
        if (count) page.querySelector(`.player-bar [data-count="${color}"]`)?.replaceWith(count);
      }
      showPanel(panel, record.game, positions[step]!, step);
      positionText.update(GAMES[record.game].rules.formatPosition(positions[step]!));
      list.querySelectorAll('.mv').forEach((el) => el.classList.toggle('current', Number((el as HTMLElement).dataset.step) === step));
      list.querySelector('.mv.current')?.scrollIntoView({ block: 'nearest' });
      analysis?.setStep(step);
      times.setStep(step);
      if (step === last && timer !== null) toggleAuto();
    };
    const toggleAuto = (): void => {
      if (timer !== null) {
        window.clearInterval(timer);
        timer = null;
        playButton.textContent = 'Play';
        return;
      }
      if (step === last) go(0);
      timer = window.setInterval(() => go(step + 1), 700);
      playButton.textContent = 'Pause';
    };
    disposer.add(() => timer !== null && window.clearInterval(timer));
    slider.addEventListener('input', () => go(Number(slider.value)));

    const rows: HTMLElement[] = [];
    for (let i = 0; i < record.moves.length; i += 2) {
      const cell = (k: number) =>
        k < record.moves.length ? h('button', { type: 'button', class: 'mv', 'data-step': k + 1, onclick: () => go(k + 1) }, record.moves[k]!) : h('span', { class: 'mv' });
      rows.push(h('li', null, h('span', { class: 'mv-n' }, String(i / 2 + 1)), cell(i), cell(i + 1)));
    }
    replace(list, ...rows);
    const times = moveTimesPanel(record.moveMs ?? record.moves.map(() => null), record.timeControl ?? { kind: 'none' }, bottom, list, (to) => go(to));
    const analysis = record.status === 'finished' ? analysisPanel(record.id, list, (to) => go(to)) : null;
    disposer.add(() => analysis?.dispose());

    const nav = (icon: string, title: string, to: () => number, testid: string) =>
      h('button', { class: 'btn icon', type: 'button', title, 'aria-label': title, 'data-testid': testid, onclick: () => go(to()) }, navIcon(icon));
    const result = record.result;
    replace(
      page,
      h(
        'section',
        { class: `game-screen game-${record.game}`, style: `--aspect:${aspectOf(record.game)}` },
        h('div', { class: 'board-col' }, top, h('div', { class: 'board-wrap' }, board.el), bot),
        h(
          'aside',
          { class: 'side' },
          h(
            'div',
            { class: 'game-head' },
            h('h1', { class: 'game-title' }, h('span', { class: `game-icon icon-${record.game}` }), kind.title, h('span', { class: 'pill' }, 'Replay')),
            h('div', { class: 'game-meta' }, new Date(record.createdAt).toLocaleString(), ' · room ', h('code', null, record.id)),
          ),
          result
            ? h('div', { class: 'result-banner', 'data-testid': 'result', 'data-winner': result.winner ?? 'draw' }, h('div', { class: 'headline' }, resultHeadline(result, null)), h('div', { class: 'detail' }, resultDetail(record.game, positions[last]!, result)))
            : h('div', { class: 'status-line' }, record.status === 'live' ? h('span', null, 'Still in play — ', link(`/game/${record.id}`, 'watch it live')) : `${capital(record.status)}`),
          panel,
          h(
            'div',
            { class: 'replay-controls' },
            nav('first', 'First (Home)', () => 0, 'first'),
            nav('prev', 'Previous (←)', () => step - 1, 'prev'),
            nav('next', 'Next (→)', () => step + 1, 'next'),
            nav('last', 'Last (End)', () => last, 'last'),
            playButton,
          ),
          h('div', { class: 'replay-step' }, slider, counter),
          analysis?.el,
          h('div', { class: 'moves-card' }, h('div', { class: 'card-title' }, 'Moves'), list),
          times.el,
          positionText.el,
          h('div', { class: 'actions' }, record.status === 'finished' ? downloadLink(record.id, record.game) : null, link('/', 'Lobby', 'btn ghost')),
        ),
      ),
    );
    document.title = `Replay · ${kind.title} — Boardroom`;
    disposer.listen<KeyboardEvent>(document, 'keydown', (e) => {
      if (typingInField(e) || e.altKey || e.ctrlKey || e.metaKey) return;
      const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: last, ArrowUp: 0, ArrowDown: last }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      go(to);
    });
    go(last);
  }

  return () => disposer.dispose();
}

/** The step buttons' icons, drawn (no font has to carry ⏮ and ⏭). */
function navIcon(which: string): SVGSVGElement {
  const paths: Record<string, string> = {
    first: 'M5 4h2.2v16H5z M19 4v16L8.5 12z',
    prev: 'M17 4v16L6 12z',
    next: 'M7 4v16l11-8z',
    last: 'M16.8 4H19v16h-2.2z M5 4v16l10.5-8z',
  };
  return s('svg', { viewBox: '0 0 24 24', width: 16, height: 16, 'aria-hidden': 'true' }, s('path', { d: paths[which]!, fill: 'currentColor' }));
}
