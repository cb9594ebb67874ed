import { startBoardroom } from './app.js';
import { ConfigError, loadConfigOrExit } from './config.js';
import { createLogger } from './log.js';

/** `npm start`: the web process. With no REDIS_URL, the embedded default runs everything here. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = createLogger(config.LOG_LEVEL);
  const boardroom = await startBoardroom(config, log).catch((error: unknown) => {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(2);
  });
  if (boardroom.mode === 'embedded') {
    log.warn('embedded default: games live in this process only and are lost when it stops; set REDIS_URL to keep them');
  }
  console.log(`Boardroom is up at http://localhost:${boardroom.port} (${boardroom.mode})`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), 10_000).unref(); // cut off from Redis, closing could wait for ever
    boardroom.close().then(
      () => process.exit(0),
      (error) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

await main();
