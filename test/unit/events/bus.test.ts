import { describe, expect, it } from 'vitest';
import { EventBus } from '../../../main/core/events/bus.js';

describe('event bus', () => {
  it('delivers to subscribers of the company only', () => {
    const bus = new EventBus<string>();
    const got: string[] = [];
    const off = bus.subscribe('a', (e) => got.push(e.type));
    bus.publish('a', 'one', {});
    bus.publish('b', 'two', {});
    off();
    bus.publish('a', 'three', {});
    expect(got).toEqual(['one']);
    expect(bus.listenerCount('a')).toBe(0);
  });

  it('replays after an id, across other companies interleaving', () => {
    const bus = new EventBus<string>();
    const first = bus.publish('a', 'a1', {});
    bus.publish('b', 'b1', {});
    bus.publish('a', 'a2', {});
    const r = bus.replay('a', first.id);
    expect(r.reset).toBe(false);
    expect(r.events.map((e) => e.type)).toEqual(['a2']);
  });

  it('asks for a reset when the id is from another boot or fell out of the buffer', () => {
    const bus = new EventBus<string>(3);
    const first = bus.publish('a', 'e1', {});
    for (let i = 2; i <= 5; i++) bus.publish('a', `e${i}`, {});
    expect(bus.replay('a', first.id).reset).toBe(true);
    expect(bus.replay('a', 'deadbeef.1').reset).toBe(true);
    expect(bus.replay('a', 'garbage').reset).toBe(true);
    const last = bus.replay('a', `${bus.bootId}.5`);
    expect(last).toEqual({ events: [], reset: false });
  });

  it('keeps memory bounded', () => {
    const bus = new EventBus<string>(10);
    for (let i = 0; i < 1000; i++) bus.publish('a', 'x', { i });
    expect(bus.replay('a', `${bus.bootId}.0`).events).toHaveLength(10);
  });
});

describe('event bus memory', () => {
  it('bounds the replay buffer by bytes as well as by count, keeping the newest event', () => {
    const bus = new EventBus<string>(1000, 10_000);
    const first = bus.publish('a', 'log', { data: 'x'.repeat(4000) });
    for (let i = 0; i < 5; i++) bus.publish('a', 'log', { data: 'y'.repeat(4000) });
    const replay = bus.replay('a', first.id);
    expect(replay.reset).toBe(true);
    const all = bus.replay('a', `${bus.bootId}.0`).events;
    expect(all.reduce((n, e) => n + e.json.length, 0)).toBeLessThanOrEqual(10_000);
    const huge = bus.publish('a', 'log', { data: 'z'.repeat(50_000) });
    expect(bus.replay('a', `${bus.bootId}.0`).events.map((e) => e.id)).toEqual([huge.id]);
  });
});
