import { describe, expect, it } from 'vitest';
import { keyLabel } from '../../../renderer/src/shortcuts/ShortcutHelp.js';

describe('keyLabel (the help shows keys as they are pressed)', () => {
  it('reads a mod chord as Ctrl on this platform, and leaves plain keys alone', () => {
    expect(keyLabel('mod+k')).toBe('Ctrl+K');
    expect(keyLabel('g')).toBe('g');
    expect(keyLabel('?')).toBe('?');
    expect(keyLabel(' ')).toBe('Space');
  });
});
