import { MARK_SIGNS, type AnalysisStatus, type GameAnalysis, type MoveJudgement } from '../../../shared/protocol/index.js';
import { Disposer, h, replace, s } from '../dom.js';
import { getJson, net } from '../net.js';
import './analysis.css';

export interface AnalysisPanel {
  readonly el: HTMLElement;
  /** The replay moved to `step`: the graph's cursor and the line under it follow. */
  setStep(step: number): void;
  dispose(): void;
}

const W = 320;
const H = 96;
const MARK_WORDS = { inaccuracy: 'Inaccuracy', mistake: 'Mistake', blunder: 'Blunder' } as const;

/**
 * A finished game's analysis under its replay: an "Analyse" button, then progress, then a graph of
 * the evaluation per ply (black's expected result, up for black; a click goes to that ply) and
 * marks (?!, ?, ??) beside the moves of `list` (`.mv[data-step]` buttons), each with the engine's
 * move in its title and, for the move shown, in a line under the graph.
 */
export function analysisPanel(gameId: string, list: HTMLElement, go: (step: number) => void): AnalysisPanel {
  const disposer = new Disposer();
  const el = h('div', { class: 'analysis-card', 'data-testid': 'analysis' });
  let analysis: GameAnalysis | null = null;
  let step = 0;
  let cursor: SVGLineElement | null = null;
  const note = h('div', { class: 'analysis-note', 'data-testid': 'analysis-note' });

  const title = h('div', { class: 'card-title' }, 'Analysis');
  const showButton = (message?: string): void =>
    replace(
      el,
      title,
      message ? h('p', { class: 'analysis-error' }, message) : null,
      h('button', { class: 'btn', type: 'button', 'data-testid': 'analyse', onclick: () => void ask() }, 'Analyse'),
      h('p', { class: 'analysis-hint' }, 'The engine looks at every position and marks the moves that lost the most.'),
    );
  const showProgress = (done: number, total: number): void => {
    const bar = h('div', { class: 'analysis-bar' }, h('span', { style: `width:${total > 0 ? Math.round((100 * done) / total) : 0}%` }));
    replace(el, title, h('div', { class: 'analysis-progress', 'data-testid': 'analysis-progress' }, bar, h('span', null, total > 0 && done > 0 ? `Analysing… ${done} of ${total} positions` : 'Waiting for a free engine…')));
  };

  const apply = (status: AnalysisStatus): void => {
    if (status.gameId !== gameId || analysis) return;
    if (status.state === 'none') showButton();
    else if (status.state === 'pending') showProgress(status.done, status.total);
    else if (status.state === 'failed') showButton(status.message);
    else show(status.analysis);
  };

  const ask = async (): Promise<void> => {
    showProgress(0, 0);
    const asked = await net().ask('analysis:request', { gameId });
    if (asked.ok) apply(asked.status);
    else showButton(asked.error.message);
  };

  const show = (done: GameAnalysis): void => {
    analysis = done;
    const graph = drawGraph(done, go);
    cursor = graph.querySelector('.analysis-cursor');
    const counts = (color: 'black' | 'white') =>
      h(
        'div',
        { 'data-counts': color },
        h('span', { class: 'analysis-side' }, color === 'black' ? 'Black' : 'White'),
        (['inaccuracy', 'mistake', 'blunder'] as const).map((mark) =>
          h('span', { class: `mark-${mark}`, title: `${MARK_WORDS[mark]}s` }, `${done.moves.filter((m) => m.color === color && m.mark === mark).length}${MARK_SIGNS[mark]}`),
        ),
      );
    replace(
      el,
      title,
      graph,
      note,
      h('div', { class: 'analysis-counts' }, counts('black'), counts('white')),
    );
    markMoves(list, done.moves);
    setStep(step);
  };

  const setStep = (to: number): void => {
    step = to;
    if (!analysis) return;
    const n = Math.max(1, analysis.evaluations.length - 1);
    cursor?.setAttribute('x1', String((to / n) * W));
    cursor?.setAttribute('x2', String((to / n) * W));
    const judged = analysis.moves[to - 1];
    const evaluation = analysis.evaluations[to];
    const value = evaluation ? `${evaluation.value >= 0 ? '+' : ''}${evaluation.value.toFixed(2)}${evaluation.proven ? ' (proven)' : ''}` : '';
    replace(
      note,
      judged?.mark
        ? h('span', { class: `mark-${judged.mark}` }, `${judged.move}${MARK_SIGNS[judged.mark]} ${MARK_WORDS[judged.mark]}; best was `, h('strong', { 'data-testid': 'best-move' }, judged.best ?? '—'))
        : h('span', null, to === 0 ? 'Start' : `Move ${to}`),
      h('span', { class: 'analysis-value' }, value),
    );
  };

  disposer.add(net().on('analysis', apply));
  // A connection that came back may have missed the end: ask again (a pending analysis queues nothing new).
  disposer.add(net().onReconnect(() => {
    if (!analysis && el.querySelector('[data-testid="analysis-progress"]')) void ask();
  }));
  replace(el, title, h('span', { class: 'analysis-hint' }, 'Loading…'));
  void getJson<{ status: AnalysisStatus }>(`/api/games/${encodeURIComponent(gameId)}/analysis`).then(
    ({ status }) => (status.state === 'pending' ? void ask() : apply(status)),
    () => el.remove(), // not a finished game: nothing to analyse
  );

  return { el, setStep, dispose: () => disposer.dispose() };
}

/** The evaluation per ply as a curve (up: black ahead) over black's dark area, with a dot on each marked move. */
function drawGraph(analysis: GameAnalysis, go: (step: number) => void): SVGSVGElement {
  const points = analysis.evaluations;
  const n = Math.max(1, points.length - 1);
  const x = (ply: number): number => (ply / n) * W;
  const y = (value: number): number => H / 2 - (value * (H - 8)) / 2;
  const line = points.map((p) => `${x(p.ply).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
  // Black's share is the dark area under the curve, white's the light one above it.
  const area = `M0,${H} L${line.replaceAll(' ', ' L')} L${W},${H} Z`;
  const slice = W / points.length;
  return s(
    'svg',
    { class: 'analysis-graph', viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', role: 'img', 'aria-label': 'Evaluation per move, up for black', 'data-testid': 'analysis-graph' },
    s('path', { class: 'analysis-area', d: area }),
    s('polyline', { class: 'analysis-line', points: line }),
    s('line', { class: 'analysis-mid', x1: 0, x2: W, y1: H / 2, y2: H / 2 }),
    s('line', { class: 'analysis-cursor', x1: 0, x2: 0, y1: 0, y2: H }),
    analysis.moves.filter((m) => m.mark).map((m) => s('circle', { class: `analysis-dot mark-${m.mark}`, cx: x(m.ply), cy: y(points[m.ply]?.value ?? 0), r: 3 })),
    points.map((p) =>
      s(
        'rect',
        { class: 'analysis-hit', x: Math.max(0, x(p.ply) - slice / 2), y: 0, width: slice, height: H, 'data-ply': p.ply, onclick: () => go(p.ply) },
        s('title', null, `${p.ply === 0 ? 'Start' : `Move ${p.ply}`}: ${p.value >= 0 ? '+' : ''}${p.value.toFixed(2)}`),
      ),
    ),
  );
}

/** Puts each marked move's sign beside it in the move list, the engine's move in its title. */
function markMoves(list: HTMLElement, moves: readonly MoveJudgement[]): void {
  for (const m of moves) {
    if (!m.mark) continue;
    const button = list.querySelector<HTMLElement>(`.mv[data-step="${m.ply}"]`);
    if (!button || button.querySelector('.move-mark')) continue;
    button.title = `${MARK_WORDS[m.mark]} (lost ${m.loss.toFixed(2)}); best was ${m.best ?? '—'}`;
    button.append(h('sup', { class: `move-mark mark-${m.mark}`, 'data-mark': m.mark, 'data-best': m.best ?? '' }, MARK_SIGNS[m.mark]));
  }
}
