import { describe, expect, it } from 'vitest';
import { claimSingleInstance, QuitCoordinator } from '../../../main/electron/lifecycle.js';
import { FakeApp, FakeEvent } from './fake-platform.js';

describe('single-instance lock', () => {
  it('the first instance keeps the lock and focuses its window on a second launch', () => {
    const app = new FakeApp();
    let focused = 0;
    expect(claimSingleInstance(app, () => focused++)).toBe(true);
    expect(app.quitCalls).toBe(0);
    app.emit('second-instance');
    expect(focused).toBe(1);
  });
  it('a second instance quits at once', () => {
    const app = new FakeApp();
    app.lockFree = false;
    let focused = 0;
    expect(claimSingleInstance(app, () => focused++)).toBe(false);
    expect(app.quitCalls).toBe(1);
    expect(app.listeners.get('second-instance')).toBeUndefined();
  });
});

describe('clean quit', () => {
  it('holds the quit until the core has closed, closes it once, then quits', async () => {
    const app = new FakeApp();
    const order: string[] = [];
    let release!: () => void;
    const q = new QuitCoordinator({
      app,
      close: () => {
        order.push('close');
        return new Promise<void>((r) => (release = r));
      },
      onError: (m) => order.push(`error ${m}`),
    });
    app.on('before-quit', (e: FakeEvent) => q.beforeQuit(e));
    app.quit();
    app.quit(); // asked twice while closing
    expect(app.quitted).toBe(false);
    expect(q.phase).toBe('closing');
    expect(order).toEqual(['close']);
    release();
    await q.closing;
    expect(q.phase).toBe('closed');
    expect(app.quitted).toBe(true);
    expect(order).toEqual(['close']);
    expect(app.quitCalls).toBe(3); // the two requests and the final quit
  });
  it('still quits when closing fails, and reports it', async () => {
    const app = new FakeApp();
    const errors: string[] = [];
    const q = new QuitCoordinator({ app, close: async () => Promise.reject(new Error('disk gone')), onError: (m) => errors.push(m) });
    app.on('before-quit', (e: FakeEvent) => q.beforeQuit(e));
    app.quit();
    await q.closing;
    expect(errors).toEqual(['closing the core failed']);
    expect(app.quitted).toBe(true);
  });
  it('exits anyway when the core never finishes closing', async () => {
    const app = new FakeApp();
    const errors: string[] = [];
    const q = new QuitCoordinator({ app, close: () => new Promise<void>(() => {}), onError: (m) => errors.push(m), timeoutMs: 20 });
    app.on('before-quit', (e: FakeEvent) => q.beforeQuit(e));
    app.quit();
    await new Promise((r) => setTimeout(r, 60));
    expect(app.exitCodes).toEqual([1]);
    expect(errors[0]).toMatch(/did not close within 20 ms/);
  });
});
