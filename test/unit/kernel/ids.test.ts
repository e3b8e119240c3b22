import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { newId } from '../../../main/core/kernel/ids.js';

describe('record ids', () => {
  it('are UUIDv7: valid UUIDs for every schema, unique, and in creation order even within a millisecond', () => {
    const ids = Array.from({ length: 5000 }, () => newId());
    for (const id of ids.slice(0, 50)) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(z.uuid().safeParse(id).success).toBe(true);
    }
    expect(new Set(ids).size).toBe(ids.length);
    // Appended at the end of every id index: each id sorts after the one made before it.
    expect([...ids].sort()).toEqual(ids);
  });

  afterEach(() => vi.restoreAllMocks());

  it('keep increasing when the clock steps back, and carry no repeated random bytes across the pool refills', () => {
    const before = Array.from({ length: 3 }, () => newId());
    // The system clock set back an hour (a sync, a time zone fix): ids go on counting, not back.
    vi.spyOn(Date, 'now').mockReturnValue(Date.now() - 3_600_000);
    const after = Array.from({ length: 600 }, () => newId());
    const ids = [...before, ...after];
    expect([...ids].sort()).toEqual(ids);
    // 600 ids span more than two refills of the 256-id pool: the random tails are all distinct.
    expect(new Set(ids.map((id) => id.slice(-12))).size).toBe(ids.length);
  });
});
