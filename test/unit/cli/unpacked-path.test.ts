import { describe, expect, it } from 'vitest';
import { unpackedPath } from '../../../main/core/kernel/package-root.js';

describe('unpackedPath', () => {
  it('points files inside a packaged app.asar at the unpacked copy', () => {
    expect(unpackedPath('/Applications/Headcount.app/Contents/Resources/app.asar/main/demo/agent.mjs')).toBe(
      '/Applications/Headcount.app/Contents/Resources/app.asar.unpacked/main/demo/agent.mjs',
    );
    expect(unpackedPath('C:\\Program Files\\Headcount\\resources\\app.asar\\main\\demo\\agent.mjs')).toBe(
      'C:\\Program Files\\Headcount\\resources\\app.asar.unpacked\\main\\demo\\agent.mjs',
    );
  });
  it('leaves paths outside an archive alone', () => {
    expect(unpackedPath('/work/headcount/main/demo/agent.mjs')).toBe('/work/headcount/main/demo/agent.mjs');
    expect(unpackedPath('/data/app.asar.unpacked/x.mjs')).toBe('/data/app.asar.unpacked/x.mjs');
  });
});
