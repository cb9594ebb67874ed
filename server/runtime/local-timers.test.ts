import { describe, expect, it, vi } from 'vitest';
import type { RuntimeHandlers } from './handlers.js';
import { LocalTimers } from './local-timers.js';

function handlers(): RuntimeHandlers & { onFlag: ReturnType<typeof vi.fn> } {
  return { onFlag: vi.fn(async () => {}), onAbandon: vi.fn(async () => {}), onBotResult: vi.fn(async () => {}), onBotThinking: vi.fn(async () => {}), onBotFailed: vi.fn(async () => {}) } as never;
}

describe('local timers', () => {
  it('a flag timer that wakes before its time by the clock sleeps again, and fires once the time has come', async () => {
    // The clock the game is judged by stands still while the timer's own clock runs on, as the
    // wall clock and a busy event loop's cached time part ways.
    let clock = 1_000_000;
    const h = handlers();
    const timers = new LocalTimers(() => {}, () => clock);
    await timers.start(h);
    await timers.armFlag('g', 4, clock + 30);
    await new Promise((r) => setTimeout(r, 80));
    expect(h.onFlag).not.toHaveBeenCalled();
    clock += 30;
    await vi.waitFor(() => expect(h.onFlag).toHaveBeenCalledWith('g', 4));
    expect(h.onFlag).toHaveBeenCalledTimes(1);
    await timers.close();
  });

  it('arms one timer per game and ply however often it is asked', async () => {
    const h = handlers();
    const timers = new LocalTimers(() => {});
    await timers.start(h);
    const at = Date.now() + 20;
    for (let i = 0; i < 3; i++) await timers.armFlag('g', 1, at);
    await vi.waitFor(() => expect(h.onFlag).toHaveBeenCalledTimes(1));
    await new Promise((r) => setTimeout(r, 40));
    expect(h.onFlag).toHaveBeenCalledTimes(1);
    await timers.close();
  });

  it('a game’s flag armed for the next ply replaces the last one, and a game that ended fires none', async () => {
    const h = handlers();
    const timers = new LocalTimers(() => {});
    await timers.start(h);
    await timers.armFlag('g', 4, Date.now() + 20);
    await timers.armFlag('g', 5, Date.now() + 30);
    await timers.armFlag('ended', 1, Date.now() + 20);
    await timers.armAbandon('ended', 'white', 1, Date.now() + 20);
    await timers.cancel('ended');
    await vi.waitFor(() => expect(h.onFlag).toHaveBeenCalledWith('g', 5));
    await new Promise((r) => setTimeout(r, 40));
    expect(h.onFlag).toHaveBeenCalledOnce();
    expect(h.onAbandon).not.toHaveBeenCalled();
    await timers.close();
  });
});
