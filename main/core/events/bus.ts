import { randomBytes } from 'node:crypto';
import type { EventData, EventKind } from '../kernel/events.js';
import { ReplayRing, type KeptEvent } from './replay-ring.js';

/** The payload a kind carries: typed for the catalogue's kinds (kernel/events.ts). */
export type PayloadOf<K extends string> = K extends EventKind ? EventData<K> : Record<string, unknown>;

/** One event on a company's stream. `id` is `<bootId>.<seq>`, the SSE id used by Last-Event-ID. */
export interface CompanyEvent<K extends string = EventKind> {
  id: string;
  companyId: string;
  type: K;
  data: Record<string, unknown>;
  at: string;
  /** `data` serialized once, shared by every subscriber. */
  json: string;
}

/** A replayed event: what was sent, serialized (the bus keeps no event objects). */
export type ReplayedEvent<K extends string = EventKind> = KeptEvent & { companyId: string; type: K };

const seqOf = (id: string): number => Number(id.slice(id.indexOf('.') + 1));

export type EventListener<K extends string = EventKind> = (event: CompanyEvent<K>) => void;

export interface ReplayResult<K extends string = EventKind> {
  /** Events after the given id, oldest first. */
  events: ReplayedEvent<K>[];
  /**
   * The id could not be honoured (another server boot, or older than the buffer): the client must
   * refetch its state before following live events.
   */
  reset: boolean;
}

/**
 * In-process pub/sub for the company event streams. A bounded ring buffer per company lets a
 * client that reconnects with Last-Event-ID replay what it missed; memory stays bounded however
 * many events flow. Kinds are the catalogue's (kernel/events.ts); the bus itself is kind-agnostic,
 * so its own tests can use any string.
 */
export class EventBus<K extends string = EventKind> {
  readonly bootId = randomBytes(4).toString('hex');
  private seq = 0;
  private readonly buffers = new Map<string, ReplayRing>();
  private readonly listeners = new Map<string, Set<EventListener<K>>>();

  /**
   * The replay buffer keeps at most `bufferSize` events and `bufferBytes` of serialized data per
   * company: run output travels as events, and a chatty run must not pin its whole output here.
   */
  constructor(
    private readonly bufferSize = 1000,
    private readonly bufferBytes = 4 * 1024 * 1024,
  ) {}

  publish<T extends K>(companyId: string, type: T, data: PayloadOf<T>, at = new Date().toISOString()): CompanyEvent<K> {
    const event: CompanyEvent<K> = { id: `${this.bootId}.${++this.seq}`, companyId, type, data, at, json: JSON.stringify(data) };
    let buffer = this.buffers.get(companyId);
    if (!buffer) this.buffers.set(companyId, (buffer = new ReplayRing(this.bufferSize, this.bufferBytes)));
    // Oldest first, by count and by bytes; the newest event always stays, however large.
    buffer.push(event.id, type, at, event.json);
    for (const listener of this.listeners.get(companyId) ?? []) listener(event);
    return event;
  }

  /** Events after `lastEventId` still in the buffer. */
  replay(companyId: string, lastEventId: string | undefined): ReplayResult<K> {
    if (!lastEventId) return { events: [], reset: false };
    const [boot, seqText] = lastEventId.split('.');
    const lastSeq = Number(seqText);
    if (boot !== this.bootId || !Number.isInteger(lastSeq)) return { events: [], reset: true };
    const buffer = this.buffers.get(companyId);
    const evicted = buffer?.lastEvicted;
    // Seqs are global, so gaps between one company's events are normal; only eviction loses events.
    const reset = lastSeq < (evicted ? seqOf(evicted) : 0) || lastSeq > this.seq;
    const events = (buffer?.after(lastSeq, seqOf) ?? []).map((e) => ({ ...e, companyId, type: e.type as K }));
    return { events, reset };
  }

  subscribe(companyId: string, listener: EventListener<K>): () => void {
    let set = this.listeners.get(companyId);
    if (!set) this.listeners.set(companyId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(companyId);
    };
  }

  listenerCount(companyId: string): number {
    return this.listeners.get(companyId)?.size ?? 0;
  }
}
