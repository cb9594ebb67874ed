import { settings } from './settings.js';

/**
 * A short tone per move, made with Web Audio (no file to load). Browsers start audio only after
 * a gesture, so the context is made or resumed after the page's first pointer or key press.
 * Making a context takes tens of ms (more where the audio device is slow to open), so it is made
 * in a task of its own, never inside the click or the move that asked for it: the gesture still
 * counts (browsers keep it for the page, or for a timer set while it is handled).
 */
let context: AudioContext | null = null;
let armed = false;

function audio(): AudioContext | null {
  if (context) return context;
  const Ctor = (window as unknown as { AudioContext?: typeof AudioContext }).AudioContext;
  if (!Ctor) return null;
  try {
    context = new Ctor();
  } catch {
    return null;
  }
  return context;
}

/** Listens once for the first gesture, which allows the audio context to run. */
export function armSound(): void {
  if (armed) return;
  armed = true;
  const wake = (): void => {
    if (!settings().sound) return;
    withAudio((ctx) => {
      if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
    });
  };
  window.addEventListener('pointerdown', wake, { capture: true });
  window.addEventListener('keydown', wake, { capture: true });
}

/** A soft click of a stone, higher for black's moves than for white's. */
export function moveSound(mover: 'black' | 'white'): void {
  if (!settings().sound) return;
  withAudio((ctx) => tone(ctx, mover));
}

/** Runs `use` with the context: at once when it exists, else in the next task, after making it. */
function withAudio(use: (ctx: AudioContext) => void): void {
  if (context) return use(context);
  window.setTimeout(() => {
    const ctx = audio();
    if (ctx) use(ctx);
  }, 0);
}

function tone(ctx: AudioContext, mover: 'black' | 'white'): void {
  try {
    const now = ctx.currentTime;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = 'triangle';
    osc.frequency.setValueAtTime(mover === 'black' ? 660 : 520, now);
    osc.frequency.exponentialRampToValueAtTime(mover === 'black' ? 440 : 350, now + 0.08);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.18, now + 0.008);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.11);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now);
    osc.stop(now + 0.12);
  } catch {
    // audio refused (no output device): moves go on in silence
  }
}
