/** A `run.log` event's data: one chunk of a run's transcript at a byte offset. */
export interface RunLogChunk {
  runId: string;
  agentId: string;
  stream: 'stdout' | 'stderr';
  offset: number;
  nextOffset: number;
  data: string;
}

type Listener = (chunk: RunLogChunk) => void;

/**
 * Run output travels on the company stream; only an open transcript cares about it. It is handed
 * to subscribers here and never kept in a store (a transcript can be far larger than memory wants).
 */
export class RunLogBus {
  private readonly listeners = new Map<string, Set<Listener>>();

  subscribe(runId: string, listener: Listener): () => void {
    let set = this.listeners.get(runId);
    if (!set) this.listeners.set(runId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(runId);
    };
  }

  /** Listeners of one run (tests check that a closed transcript leaves none). */
  listenerCount(runId: string): number {
    return this.listeners.get(runId)?.size ?? 0;
  }

  publish(data: Record<string, unknown>): void {
    if (typeof data.runId !== 'string') return;
    const set = this.listeners.get(data.runId);
    if (!set) return;
    const chunk = data as unknown as RunLogChunk;
    for (const l of set) l(chunk);
  }
}

export const runLogBus = new RunLogBus();
