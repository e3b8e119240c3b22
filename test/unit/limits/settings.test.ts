import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../main/core/db/connection.js';
import { migratedDatabase, type MigratedDatabase } from '../../helpers/migrated-db.js';
import { LIMIT_DEFAULTS, readLimitSettings, writeLimitSettings } from '../../../main/core/limits/settings.js';

// The limits are read with one range of the settings' key index (every `limits.` key); these run
// that read on a real, migrated database file.
let db: MigratedDatabase;
let h: DatabaseHandle;
beforeEach(async () => {
  db = await migratedDatabase('limit-settings-');
  h = db.h;
});
afterEach(() => db.close());

const put = (key: string, value: string) => h.sqlite.prepare("INSERT INTO instance_settings (key, value, updated_at) VALUES (?, ?, '2026-11-27T00:00:00.000Z')").run(key, value);

describe('limit settings', () => {
  it('are the defaults until set, then the stored values', () => {
    expect(readLimitSettings(h.db)).toEqual(LIMIT_DEFAULTS);
    expect(writeLimitSettings(h.db, '2026-11-27T00:00:00.000Z', { commentsPerMinute: 7, transcriptCompanyBudgetBytes: 0 })).toBe(true);
    expect(readLimitSettings(h.db)).toEqual({ ...LIMIT_DEFAULTS, commentsPerMinute: 7, transcriptCompanyBudgetBytes: 0 });
  });

  it('ignore neighbouring and unknown keys, and values edited by hand into anything but a whole number ≥ 0, JSON or not', () => {
    // Keys sorting right around the `limits.` range, other settings, and names this build does not know.
    put('limits', '1');
    put('limits-commentsPerMinute', '2');
    put('limits/commentsPerMinute', '3');
    put('limitsZ', '4');
    put('maxConcurrentRuns', '5');
    put('limits.unknownLimit', '6');
    put('limits.toString', '7');
    put('limits.attachmentUploadsPerMinute', '"many"');
    put('limits.attachmentBytesPerMinute', '-1');
    put('limits.transcriptMaxBytes', '1.5');
    // Not JSON at all, under a known and an unknown name: ignored, never a failed read.
    put('limits.attachmentCompanyBudgetBytes', 'lots');
    put('limits.someFutureLimit', 'not json');
    put('limits.commentsPerMinute', '12');
    expect(readLimitSettings(h.db)).toEqual({ ...LIMIT_DEFAULTS, commentsPerMinute: 12 });
  });
});
