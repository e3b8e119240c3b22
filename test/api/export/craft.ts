import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, lstatSync, existsSync } from 'node:fs';
import path from 'node:path';
import { createGzip, gzipSync } from 'node:zlib';
import * as tar from 'tar';

/**
 * Hand-made tar archives for hostile-import tests: any name, type, link target and declared size,
 * which no well-behaved tar writer would produce (absolute and `..` names, duplicates, devices).
 */
export interface CraftEntry {
  name: string;
  /** ustar typeflag: '0' file, '1' hard link, '2' symlink, '3' char device, '4' block device, '5' folder, '6' FIFO. */
  type?: string;
  body?: Buffer | string;
  linkname?: string;
  /** Declared size when it must differ from the body (an oversized header with no body). */
  size?: number;
}

function header(e: CraftEntry, size: number): Buffer {
  const h = Buffer.alloc(512);
  const put = (s: string, off: number, len: number) => Buffer.from(s, 'utf8').copy(h, off, 0, len);
  const octal = (n: number, len: number) => n.toString(8).padStart(len - 1, '0') + '\0';
  put(e.name, 0, 100);
  put(octal(e.type === '5' ? 0o755 : 0o644, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(Math.floor(Date.now() / 1000), 12), 136, 12);
  h.fill(' ', 148, 156);
  put(e.type ?? '0', 156, 1);
  put(e.linkname ?? '', 157, 100);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  let sum = 0;
  for (const b of h) sum += b;
  put(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8);
  return h;
}

export function tarBytes(entries: CraftEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const body = e.body === undefined ? Buffer.alloc(0) : Buffer.from(e.body);
    parts.push(header(e, e.size ?? body.length), body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

export const craftArchive = (entries: CraftEntry[]): Buffer => gzipSync(tarBytes(entries));

/** The entries of a real export, bodies included, to edit and pack again. */
export function readArchive(file: string): CraftEntry[] {
  const out: CraftEntry[] = [];
  tar.t({
    file,
    sync: true,
    onReadEntry: (e) => {
      const chunks: Buffer[] = [];
      e.on('data', (c: Buffer) => chunks.push(c));
      e.on('end', () => out.push({ name: e.path, type: e.type === 'Directory' ? '5' : '0', body: Buffer.concat(chunks) }));
    },
  });
  return out;
}

export const jsonl = (rows: unknown[]): string => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
export const rowsOfEntry = (entries: CraftEntry[], name: string): Record<string, unknown>[] =>
  String(entries.find((e) => e.name === name)!.body)
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Replaces (or adds) one entry's body. */
export function withEntry(entries: CraftEntry[], name: string, body: string | Buffer): CraftEntry[] {
  const i = entries.findIndex((e) => e.name === name);
  const copy = entries.map((e) => ({ ...e }));
  if (i === -1) copy.push({ name, body });
  else copy[i] = { ...copy[i]!, body };
  return copy;
}

/**
 * A gzip-compressed tar whose one file expands about `ratio` times: 1 MiB blocks of zeros with a
 * short random run each, calibrated so the whole archive's ratio is at least the one asked for.
 */
export async function gzipBomb(expandedMiB: number, randomRun = 600): Promise<{ bytes: Buffer; ratio: number }> {
  const gz = createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  gz.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((r) => gz.on('end', r));
  const size = expandedMiB * 1024 * 1024;
  gz.write(header({ name: 'files/1' }, size));
  for (let i = 0; i < expandedMiB; i++) {
    const block = Buffer.alloc(1024 * 1024);
    randomBytes(randomRun).copy(block, 0);
    if (!gz.write(block)) await new Promise((r) => gz.once('drain', r));
  }
  gz.end(Buffer.alloc(1024));
  await done;
  const bytes = Buffer.concat(chunks);
  return { bytes, ratio: (size + 1536) / bytes.length };
}

/** Every file under `dir` (links as links) with its size and sha256: to prove nothing changed. */
export function treeDigest(dir: string, skip: (rel: string) => boolean = () => false): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    const abs = path.join(dir, rel);
    if (!existsSync(abs) && !lstatSync(abs, { throwIfNoEntry: false })) return;
    const st = lstatSync(abs);
    if (st.isDirectory()) {
      if (rel) out.set(`${rel}/`, 'dir');
      for (const n of readdirSync(abs)) walk(path.join(rel, n));
      return;
    }
    if (skip(rel)) return;
    out.set(rel, st.isFile() ? `${st.size}:${createHash('sha256').update(readFileSync(abs)).digest('hex')}` : `link:${st.size}`);
  };
  walk('');
  return out;
}
