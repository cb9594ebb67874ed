import { existsSync, mkdirSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startRedis, type TestRedis } from '../support/redis.js';
import { ADMIN_TOKEN, kill9, spawnBuilt, startBotWorker } from '../support/server.js';

export { ADMIN_TOKEN };

const root = fileURLToPath(new URL('../..', import.meta.url));
export const ARTIFACTS = `${root}test-artifacts/browser`;
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Everything a browser test needs: a redis-server of its own, the built server as a child process
 * (it serves the built client from client-demo/dist), a BullMQ bot worker in this process, and
 * Debian's Chromium driven by playwright-core.
 */
export interface Stack {
  readonly url: string;
  readonly redis: TestRedis;
  readonly browser: Browser;
  newPage(options?: { viewport?: { width: number; height: number }; mobile?: boolean; colorScheme?: 'light' | 'dark' }): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

export async function startStack(prefix: string, env: Record<string, string> = {}): Promise<Stack> {
  if (!existsSync(`${root}client-demo/dist/index.html`)) throw new Error('client-demo/dist is missing: run `npm run build` first (npm test does).');
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium (bash .ci/run does), or set CHROMIUM_PATH.`);
  mkdirSync(ARTIFACTS, { recursive: true });
  const redis = await startRedis();
  let server: ChildProcess | undefined;
  let worker: { close(): Promise<void> } | undefined;
  let browser: Browser | undefined;
  try {
    const spawned = spawnBuilt('main', { REDIS_URL: redis.url, REDIS_PREFIX: prefix, RECONNECT_GRACE_MS: '30000', ...env });
    server = spawned.child;
    // A server that dies under a test says why, instead of leaving only timeouts behind.
    let closing = false;
    server.once('exit', (code, signal) => void (closing || console.error(`[stack] the server exited (${code ?? signal}) under the test:\n${spawned.output()}`)));
    const port = await spawned.ready;
    worker = startBotWorker(redis.url, prefix);
    browser = await launchChromium();
    const url = `http://127.0.0.1:${port}`;
    const contexts: BrowserContext[] = [];
    const b = browser;
    return {
      url,
      redis,
      browser: b,
      async newPage(options = {}) {
        const context = await b.newContext({
          baseURL: url,
          viewport: options.viewport ?? { width: 1280, height: 860 },
          deviceScaleFactor: 1,
          ...(options.mobile ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
          colorScheme: options.colorScheme ?? 'light',
          reducedMotion: 'reduce',
        });
        contexts.push(context);
        const page = await context.newPage();
        page.setDefaultTimeout(15_000);
        page.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
        return { context, page };
      },
      async close() {
        for (const c of contexts) await c.close().catch(() => undefined);
        await b.close().catch(() => undefined);
        await worker?.close();
        closing = true;
        await stopChild(server!);
        await redis.stop();
      },
    };
  } catch (error) {
    await browser?.close().catch(() => undefined);
    await worker?.close().catch(() => undefined);
    if (server) await kill9(server);
    await redis.stop();
    throw error;
  }
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-dev-shm-usage'],
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await gone;
  clearTimeout(timer);
}
