import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PathOutsideStoreError, plainNameProblem, resolveInside, resolveInsideOrNull } from '../../../main/core/kernel/confined-path.js';
import { storedTranscriptPath } from '../../../main/core/heartbeat/transcript-file.js';

const base = mkdtempSync(path.join(os.tmpdir(), 'headcount-confine-'));
const root = path.join(base, 'store');
mkdirSync(root);
writeFileSync(path.join(base, 'secret.db'), 'outside');
writeFileSync(path.join(root, 'ok'), 'inside');
symlinkSync(path.join(base, 'secret.db'), path.join(root, 'link-out'));
symlinkSync(path.join(root, 'ok'), path.join(root, 'link-in'));
symlinkSync(path.join(base, 'missing'), path.join(root, 'dangling'));
mkdirSync(path.join(base, 'sub'));
symlinkSync(path.join(base, 'sub'), path.join(root, 'dir-out'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('resolveInside', () => {
  it('resolves generated names directly inside the store, existing or not', () => {
    expect(resolveInside(root, 'ok')).toBe(path.join(root, 'ok'));
    expect(resolveInside(root, '0b7c2a64-3f0e-4c1e-9a55-2f6f1c0a9e11')).toBe(path.join(root, '0b7c2a64-3f0e-4c1e-9a55-2f6f1c0a9e11'));
    expect(resolveInside(root, 'run.jsonl')).toBe(path.join(root, 'run.jsonl'));
    // A link to another file of the same store leads nowhere else.
    expect(resolveInside(root, 'link-in')).toBe(path.join(root, 'link-in'));
  });

  it.each([
    ['../secret.db', 'separator'],
    ['../../etc/passwd', 'separator'],
    ['sub/../../secret.db', 'separator'],
    ['/etc/passwd', 'separator'],
    [path.join(base, 'secret.db'), 'separator'],
    ['..\\secret.db', 'separator'],
    ['C:\\Windows\\win.ini', 'separator'],
    ['C:secret.db', 'drive letter'],
    ['..', 'dot segment'],
    ['.', 'dot segment'],
    ['%2e%2e%2fsecret.db', 'percent'],
    ['..%2fsecret.db', 'percent'],
    ['%2e%2e', 'percent'],
    ['ok\0.png', 'control'],
    ['ok\n', 'control'],
    ['', 'empty'],
    ['x'.repeat(256), 'longer'],
  ])('refuses %j (%s)', (name, reason) => {
    expect(() => resolveInside(root, name)).toThrow(PathOutsideStoreError);
    expect(plainNameProblem(name)).toContain(reason);
    expect(resolveInsideOrNull(root, name)).toBeNull();
  });

  it('refuses links that lead out of the store, dangling links and linked folders', () => {
    expect(() => resolveInside(root, 'link-out')).toThrow(/outside its folder/);
    expect(() => resolveInside(root, 'dangling')).toThrow(/symbolic link/);
    expect(() => resolveInside(root, 'dir-out')).toThrow(/outside its folder/);
  });

  it('follows a store that is itself reached through a link', () => {
    const alias = path.join(base, 'alias');
    symlinkSync(root, alias);
    expect(resolveInside(alias, 'ok')).toBe(path.join(alias, 'ok'));
    expect(() => resolveInside(alias, 'link-out')).toThrow(PathOutsideStoreError);
  });

  it('gives transcripts the same path the writer uses, and refuses run ids that are paths', () => {
    const runs = path.join(base, 'runs');
    expect(storedTranscriptPath(runs, '0b7c2a64-3f0e-4c1e-9a55-2f6f1c0a9e11')).toBe(path.join(runs, '0b7c2a64-3f0e-4c1e-9a55-2f6f1c0a9e11.jsonl'));
    for (const id of ['../secret', '../../service', '/tmp/x', '..\\x', '%2e%2e%2fx']) expect(() => storedTranscriptPath(runs, id), id).toThrow(PathOutsideStoreError);
  });
});
