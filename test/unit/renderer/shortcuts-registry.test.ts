// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { ShortcutRegistry } from '../../../renderer/src/shortcuts/registry.js';

function setup() {
  let t = 0;
  const reg = new ShortcutRegistry(1000, () => t);
  const ran: string[] = [];
  const add = (keys: string, name = keys) => reg.register({ keys, description: name, group: 'g', run: () => ran.push(name) });
  const press = (key: string, extra: Partial<KeyboardEvent> = {}) => reg.handle({ key, ...extra });
  return { reg, ran, add, press, tick: (ms: number) => (t += ms) };
}

describe('ShortcutRegistry', () => {
  it('runs single keys and two-key sequences within the time window', () => {
    const { ran, add, press, tick } = setup();
    add('g d', 'dashboard');
    add('g i', 'issues');
    add('c', 'create');
    expect(press('g')).toBe(true);
    press('d');
    press('c');
    press('g');
    tick(1500);
    press('i'); // too late: not a sequence
    expect(ran).toEqual(['dashboard', 'create']);
  });

  it('ignores keys typed into fields and keys with modifiers', () => {
    const { ran, add, press } = setup();
    add('c');
    const input = document.createElement('input');
    const area = document.createElement('textarea');
    expect(press('c', { target: input })).toBe(false);
    expect(press('c', { target: area })).toBe(false);
    expect(press('c', { ctrlKey: true })).toBe(false);
    expect(press('c', { target: document.body })).toBe(true);
    expect(ran).toEqual(['c']);
  });

  it('runs Ctrl/Cmd chords (mod+k) even from a text field, and leaves other chords to the browser', () => {
    const { ran, add, press } = setup();
    add('mod+k', 'palette');
    const input = document.createElement('input');
    expect(press('k', { ctrlKey: true, target: input })).toBe(true);
    expect(press('K', { metaKey: true })).toBe(true);
    expect(press('k')).toBe(false);
    expect(press('c', { ctrlKey: true })).toBe(false);
    expect(press('k', { ctrlKey: true, altKey: true })).toBe(false);
    expect(ran).toEqual(['palette', 'palette']);
  });

  it('lets the latest registration of the same keys win, and restores the earlier one when it goes', () => {
    const { reg, ran, add, press } = setup();
    add('c', 'shell create');
    const off = add('c', 'page create');
    press('c');
    expect(reg.list().map((s) => s.description)).toEqual(['page create']);
    off();
    press('c');
    expect(ran).toEqual(['page create', 'shell create']);
    expect(reg.list().map((s) => s.description)).toEqual(['shell create']);
  });

  it('dispatches from one window listener and notifies subscribers of changes', () => {
    const { reg, ran, add } = setup();
    let changes = 0;
    reg.subscribe(() => changes++);
    add('?', 'help');
    const detach = reg.attach(window);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: '?' }));
    detach();
    window.dispatchEvent(new KeyboardEvent('keydown', { key: '?' }));
    expect(ran).toEqual(['help']);
    expect(changes).toBe(1);
  });
});
