import { createCore, type Core } from '../core/index.js';
import { defaultKeyProvider } from '../core/secrets/master-key.js';
import { stderrLogger } from '../core/kernel/logger.js';

export interface ServeOptions {
  home: string;
  port: number;
}

/**
 * Runs the headless core until SIGINT/SIGTERM. Prints two lines on stdout once ready,
 * `listening on http://127.0.0.1:<port>`, then `board: <one-time login link>`; everything else goes to stderr.
 */
export async function serve(options: ServeOptions): Promise<void> {
  // Signal handlers come first: a signal that arrives while the core boots (or right after the
  // listening line) must still close the database cleanly rather than kill the process.
  const running: { core?: Core } = {};
  let stopSignal: string | undefined;
  const stop = (signal: string) => {
    if (stopSignal) return;
    stopSignal = signal;
    const core = running.core;
    if (!core) return; // finished once the core is up, below
    stderrLogger.info(`${signal}: finishing requests in flight, then closing the database`);
    core.close().then(
      () => process.exit(0),
      (err: unknown) => {
        stderrLogger.error('shutdown failed', { message: err instanceof Error ? err.message : String(err) });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  const keyProvider = await defaultKeyProvider(options.home);
  const core = await createCore({ home: options.home, port: options.port, keyProvider, logger: stderrLogger });
  running.core = core;
  // The contract line first (tools wait for it), then a one-time link that signs a browser in to
  // the board. One write, so a reader that has the first line has the second too.
  process.stdout.write(`listening on ${core.url}\nboard: ${core.loginLink()}\n`);
  stderrLogger.info('board token', { file: process.env.SERVICE_BOARD_TOKEN ? 'SERVICE_BOARD_TOKEN' : `${options.home}/board-token` });
  if (stopSignal) {
    const signal = stopSignal;
    stopSignal = undefined;
    stop(signal);
  }
}
