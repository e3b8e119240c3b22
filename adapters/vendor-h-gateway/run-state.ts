import type { ExecutionContext } from '@service/adapter-utils';
import type { GatewayEvent } from './protocol.js';

type Ended = Extract<GatewayEvent, { type: 'result' | 'error' }>;

/**
 * What one run learned from the gateway. Events carry a sequence number: after a reconnection the
 * gateway replays from the last one the client saw, and replays already applied are skipped.
 * Every applied event is also written to the run transcript as one JSON line, so the transcript
 * is the gateway's own stream (the UI parser reads it back).
 */
export class GatewayRunState {
  lastSeq = 0;
  accepted = false;
  sessionKey: string | null = null;
  usage: Extract<GatewayEvent, { type: 'usage' }> | null = null;
  end: Ended | null = null;

  constructor(private readonly ctx: Pick<ExecutionContext, 'onLog' | 'onMeta'>) {}

  /** Applies one event; returns true when it ends the run. */
  apply(event: GatewayEvent): boolean {
    if (event.seq > 0) {
      if (event.seq <= this.lastSeq) return this.end !== null;
      this.lastSeq = event.seq;
    }
    this.ctx.onLog('stdout', `${JSON.stringify(event)}\n`);
    switch (event.type) {
      case 'accepted':
        this.accepted = true;
        if (event.sessionKey) this.sessionKey = event.sessionKey;
        this.ctx.onMeta({ gatewayRunId: event.runId, sessionId: event.sessionKey });
        return false;
      case 'log':
        return false;
      case 'usage':
        // Usage events are running totals for the run: the last one counts.
        this.usage = event;
        return false;
      case 'result':
        if (event.sessionKey) this.sessionKey = event.sessionKey;
        this.end = event;
        return true;
      case 'error':
        this.end = event;
        return true;
    }
  }
}
