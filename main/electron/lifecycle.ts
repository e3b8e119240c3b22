import type { AppLike, PreventableEvent } from './electron-like.js';

/**
 * One app per data home (main.ts keeps Electron's profile, and so the lock, there): a second launch
 * hands over to the first (which focuses its window) and quits. Two cores on one database would
 * run every heartbeat twice.
 */
export function claimSingleInstance(app: Pick<AppLike, 'requestSingleInstanceLock' | 'on' | 'quit'>, focusExisting: () => void): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', focusExisting);
  return true;
}

export interface QuitDeps {
  app: Pick<AppLike, 'quit' | 'exit'>;
  /** Stops the scheduler, cancels running heartbeats, closes the server and the database. */
  close: () => Promise<void>;
  onError: (message: string, err?: unknown) => void;
  /** Past this the app exits anyway, so a stuck close never leaves a zombie window. */
  timeoutMs?: number;
}

/**
 * A clean quit: `before-quit` is held until the core has closed (once, however many times quit is
 * asked for), then the quit goes through.
 */
export class QuitCoordinator {
  private state: 'running' | 'closing' | 'closed' = 'running';
  private done: Promise<void> | undefined;

  constructor(private readonly deps: QuitDeps) {}

  get phase(): 'running' | 'closing' | 'closed' {
    return this.state;
  }

  /** The promise of the close in progress, if any. */
  get closing(): Promise<void> | undefined {
    return this.done;
  }

  beforeQuit(event: PreventableEvent): void {
    if (this.state === 'closed') return;
    event.preventDefault();
    if (this.state === 'closing') return;
    this.state = 'closing';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      this.deps.onError(`the core did not close within ${this.deps.timeoutMs ?? 20_000} ms; exiting`);
      this.state = 'closed';
      this.deps.app.exit(1);
    }, this.deps.timeoutMs ?? 20_000);
    this.done = this.deps
      .close()
      .catch((err: unknown) => this.deps.onError('closing the core failed', err))
      .finally(() => {
        clearTimeout(timer);
        if (timedOut) return;
        this.state = 'closed';
        this.deps.app.quit();
      });
  }
}
