import { describe, expect, it } from 'vitest';
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
});
