import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { settingsModel } from '@service/adapter-utils';

const dir = mkdtempSync(path.join(os.tmpdir(), 'hc-settings-model-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const settings = (name: string, content: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
};

describe('settingsModel', () => {
  it('reads a plain model string, trimmed; a nested one only under the key the CLI uses', () => {
    expect(settingsModel(settings('plain.json', JSON.stringify({ model: '  sonnet ' })))).toBe('sonnet');
    const nested = settings('nested.json', JSON.stringify({ model: { name: 'gemini-2.5-pro', modelId: 'gpt-5' } }));
    expect(settingsModel(nested)).toBeNull();
    expect(settingsModel(nested, 'name')).toBe('gemini-2.5-pro');
    expect(settingsModel(nested, 'modelId')).toBe('gpt-5');
  });

  it('is null for a missing, unreadable or empty setting', () => {
    expect(settingsModel(path.join(dir, 'missing.json'))).toBeNull();
    expect(settingsModel(settings('broken.json', '{'))).toBeNull();
    expect(settingsModel(settings('null.json', 'null'), 'name')).toBeNull();
    expect(settingsModel(settings('blank.json', JSON.stringify({ model: '   ' })))).toBeNull();
    expect(settingsModel(settings('number.json', JSON.stringify({ model: { name: 7 } })), 'name')).toBeNull();
  });
});
