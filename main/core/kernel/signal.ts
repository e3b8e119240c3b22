/**
 * A level-triggered "something changed" notice inside one process: listeners are called, never
 * handed data. The heartbeat engine listens for committed wake requests on one, so a wake starts
 * its run at once rather than at the next tick (the tick stays as the safety net).
 */
export class Signal {
  private readonly listeners = new Set<() => void>();

  notify(): void {
    for (const listener of this.listeners) listener();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
