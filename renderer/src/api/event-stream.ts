import type { ApiClient } from './client.js';
import { toApiError } from './client.js';
import { SseParser } from './sse.js';

/** An event of `GET /api/companies/{id}/events`, its data parsed. */
export interface LiveEvent {
  id: string | null;
  type: string;
  data: Record<string, unknown>;
}

export type StreamStatus = 'connecting' | 'live' | 'reconnecting' | 'stopped' | 'unauthorized';

export interface EventStreamOptions {
  client: Pick<ApiClient, 'raw'>;
  companyId: string;
  onEvent: (event: LiveEvent) => void;
  /** The server could not replay what was missed (restart, or too far behind): refetch everything. */
  onReset: () => void;
  onStatus?: (status: StreamStatus, detail?: string) => void;
  /** Delays between reconnect attempts; the last one repeats. */
  backoffMs?: readonly number[];
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export const DEFAULT_BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000] as const;

const abortableSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * Follows a company's event stream over fetch streaming (EventSource cannot send a bearer token):
 * resumes with Last-Event-ID after a drop, reconnects with backoff, and stops for good on 401/403/404.
 */
export class EventStream {
  private readonly abort = new AbortController();
  private lastEventId: string | null = null;
  private attempt = 0;
  private running = false;

  constructor(private readonly options: EventStreamOptions) {}

  get lastId(): string | null {
    return this.lastEventId;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.loop();
  }

  stop(): void {
    this.abort.abort();
    this.options.onStatus?.('stopped');
  }

  private async loop(): Promise<void> {
    const { signal } = this.abort;
    const backoff = this.options.backoffMs ?? DEFAULT_BACKOFF_MS;
    const sleep = this.options.sleep ?? abortableSleep;
    while (!signal.aborted) {
      this.options.onStatus?.(this.attempt === 0 ? 'connecting' : 'reconnecting');
      let fatal: string | null = null;
      try {
        fatal = await this.connectOnce(signal);
      } catch (err) {
        if (signal.aborted) return;
        this.options.onStatus?.('reconnecting', err instanceof Error ? err.message : String(err));
      }
      if (fatal !== null) {
        this.options.onStatus?.(fatal === 'unauthorized' ? 'unauthorized' : 'stopped', fatal);
        return;
      }
      if (signal.aborted) return;
      const delay = backoff[Math.min(this.attempt, backoff.length - 1)] ?? 1000;
      this.attempt++;
      await sleep(delay, signal);
    }
  }

  /** One connection; resolves when it ends. Returns a reason when reconnecting is pointless. */
  private async connectOnce(signal: AbortSignal): Promise<string | null> {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (this.lastEventId) headers['last-event-id'] = this.lastEventId;
    const res = await this.options.client.raw(`/api/companies/${this.options.companyId}/events`, { headers, signal });
    if (!res.ok) {
      const err = await toApiError(res);
      if (res.status === 401) return 'unauthorized';
      if (res.status === 403 || res.status === 404) return err.message;
      throw err;
    }
    if (!res.body) throw new Error('The event stream has no body');
    this.attempt = 0;
    this.options.onStatus?.('live');
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    const parser = new SseParser();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return null;
        for (const e of parser.push(value)) this.dispatch(e.id, e.type, e.data);
      }
    } finally {
      reader.releaseLock();
    }
  }

  private dispatch(id: string | null, type: string, raw: string): void {
    if (id) this.lastEventId = id;
    if (type === 'stream.reset') {
      this.options.onReset();
      return;
    }
    let data: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === 'object') data = parsed as Record<string, unknown>;
    } catch {
      // an event whose data is not JSON still says that something of its type changed
    }
    this.options.onEvent({ id, type, data });
  }
}
