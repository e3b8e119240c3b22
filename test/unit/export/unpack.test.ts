import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ArchiveRefusedError, DEFAULT_UNPACK_LIMITS, normaliseEntryName, unpackArchive, type UnpackRules } from '../../../main/core/export/unpack.js';
import { acceptsArchiveFile, ARCHIVE_FOLDERS } from '../../../main/core/export/format.js';
import { craftArchive, gzipBomb, type CraftEntry } from '../../api/export/craft.js';

const base = mkdtempSync(path.join(os.tmpdir(), 'headcount-unpack-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const rules: UnpackRules = { folders: ARCHIVE_FOLDERS, acceptsFile: acceptsArchiveFile };
let n = 0;

async function unpack(entries: CraftEntry[] | Buffer, limits = DEFAULT_UNPACK_LIMITS) {
  const file = path.join(base, `a${++n}.tar.gz`);
  writeFileSync(file, Buffer.isBuffer(entries) ? entries : craftArchive(entries));
  const staging = path.join(base, `s${n}`);
  try {
    return { result: await unpackArchive(file, staging, rules, limits), staging, error: null };
  } catch (err) {
    return { result: null, staging, error: err as Error };
  }
}

const ok: CraftEntry[] = [
  { name: 'manifest.json', body: '{}' },
  { name: 'tables/', type: '5' },
  { name: 'tables/issues.jsonl', body: '{"id":1}\n' },
  { name: './files/1', body: 'bytes' },
];

describe('unpackArchive', () => {
  it('unpacks accepted entries under names of its own, and maps each archive name to its bytes', async () => {
    const { result, staging } = await unpack(ok);
    expect([...result!.files.keys()]).toEqual(['manifest.json', 'tables/issues.jsonl', 'files/1']);
    expect(readFileSync(result!.files.get('files/1')!, 'utf8')).toBe('bytes');
    expect(readdirSync(staging).sort()).toEqual(['e0', 'e1', 'e2']);
    expect(result!.bytes).toBe(2 + 9 + 5);
  });

  it.each<[string, CraftEntry[], RegExp]>([
    ['a ".." name', [{ name: '../evil', body: 'x' }], /"\.\.\/evil".*"\.\." segment/],
    ['a ".." inside a name', [{ name: 'files/../../evil', body: 'x' }], /"\.\." segment/],
    ['an absolute name', [{ name: '/tmp/evil', body: 'x' }], /absolute path/],
    ['a drive-letter name', [{ name: 'C:/evil', body: 'x' }], /absolute path/],
    ['a backslash name', [{ name: 'files\\..\\evil', body: 'x' }], /backslash/],
    ['a control character', [{ name: 'files/1\n', body: 'x' }], /control character/],
    ['an unknown file', [{ name: 'evil.sh', body: 'x' }], /"evil.sh".*format does not have/],
    ['an encoded name', [{ name: 'tables/%2e%2e.jsonl', body: 'x' }], /format does not have/],
    ['a planted folder', [{ name: 'attachments/evil/', type: '5' }], /"attachments\/evil\/".*folder/],
    ['a file in a planted folder', [{ name: 'attachments/evil/x', body: 'x' }], /format does not have/],
    ['a symbolic link', [{ name: 'files/1', type: '2', linkname: '/etc/passwd' }], /SymbolicLink entry/],
    ['a hard link', [{ name: 'files/1', type: '1', linkname: 'manifest.json' }], /Link entry/],
    ['a character device', [{ name: 'files/1', type: '3' }], /CharacterDevice entry/],
    ['a block device', [{ name: 'files/1', type: '4' }], /BlockDevice entry/],
    ['a FIFO', [{ name: 'files/1', type: '6' }], /FIFO entry/],
    ['a duplicate name', [{ name: 'files/1', body: 'a' }, { name: './files/1', body: 'b' }], /"\.\/files\/1".*second entry of the same name/],
  ])('refuses %s, naming the entry, before writing it', async (_what, entries, cause) => {
    const { error, staging } = await unpack([{ name: 'manifest.json', body: '{}' }, ...entries]);
    expect(error).toBeInstanceOf(ArchiveRefusedError);
    expect(error!.message).toMatch(cause);
    // Only what came before the bad entry was written; the bad entry never was.
    expect(readdirSync(staging).length).toBeLessThanOrEqual(entries.length);
    expect(existsSync(path.join(base, 'evil'))).toBe(false);
  });

  it('refuses an entry over the per-entry cap from its header, before reading its body', async () => {
    const { error, staging } = await unpack([{ name: 'files/1', size: 2 * 1024 ** 3 }]);
    expect(error!.message).toMatch(/"files\/1": 2147483648 bytes, over the 1073741824-byte limit per entry/);
    expect(readdirSync(staging)).toEqual([]);
  });

  it('refuses an archive over the total cap or the entry count cap', async () => {
    const limits = { ...DEFAULT_UNPACK_LIMITS, maxExpandedBytes: 10, maxEntries: 3 };
    const big = await unpack([{ name: 'files/1', body: '123456' }, { name: 'files/2', body: '123456' }], limits);
    expect(big.error!.message).toMatch(/"files\/2": the archive expands to more than 10 bytes/);
    const many = await unpack([1, 2, 3, 4].map((i) => ({ name: `files/${i}`, body: '' })), limits);
    expect(many.error!.message).toMatch(/"files\/4": the archive has more than 3 entries/);
  });

  it('stops a 600:1 gzip bomb early, having written a small part of it', async () => {
    const bomb = await gzipBomb(256);
    expect(bomb.ratio).toBeGreaterThanOrEqual(600);
    const { error, staging } = await unpack(bomb.bytes);
    expect(error!.message).toMatch(/expands more than 200 times its compressed size/);
    const written = readdirSync(staging).reduce((s, f) => s + statSync(path.join(staging, f)).size, 0);
    expect(written).toBeLessThan(16 * 1024 * 1024);
  });

  it('refuses what is not a tar.gz', async () => {
    const { error } = await unpack(Buffer.from('not a tarball at all'));
    expect(error).toBeInstanceOf(ArchiveRefusedError);
    expect(error!.message).toMatch(/not a readable \.tar\.gz/);
  });
});

describe('normaliseEntryName', () => {
  it('drops ./ and trailing slashes, and refuses empty segments', () => {
    expect(normaliseEntryName('./tables/')).toEqual({ name: 'tables' });
    expect(normaliseEntryName('tables//x')).toEqual({ problem: 'its name is empty or has empty segments' });
    expect(normaliseEntryName('./')).toEqual({ problem: 'its name is empty or has empty segments' });
  });
});
