import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../../main/core/kernel/logger.js';
import type { TestCore } from '../../helpers/core.js';

/** Creates a secret through the API and returns its metadata. */
export async function createSecret(t: TestCore, companyId: string, name: string, value: string, extra: Record<string, unknown> = {}): Promise<any> {
  const res = await t.api('POST', `/api/companies/${companyId}/secrets`, { body: { name, value, ...extra } });
  if (res.status !== 201) throw new Error(`create secret: ${res.status} ${res.text}`);
  return res.body;
}

export const ref = (secretId: string, version: 'latest' | number = 'latest') => ({ type: 'secret_ref' as const, secretId, version });

/** A logger that keeps every line, so a test can prove no value was ever logged. */
export function capturingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(`${level} ${message} ${fields ? JSON.stringify(fields) : ''}`);
  };
  return { lines, info: log('info'), warn: log('warn'), error: log('error') };
}

/** Reads a company's event stream in the background for the whole test. */
export async function openEventStream(t: TestCore, companyId: string) {
  const controller = new AbortController();
  const res = await fetch(`${t.url}/api/companies/${companyId}/events`, {
    headers: { authorization: `Bearer ${t.boardToken}` },
    signal: controller.signal,
  });
  if (res.status !== 200 || !res.body) throw new Error(`event stream: ${res.status}`);
  let text = '';
  const decoder = new TextDecoder();
  const reader = res.body.getReader();
  const pump = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        text += decoder.decode(value, { stream: true });
      }
    } catch {
      // aborted at the end of the test
    }
  })();
  return {
    text: () => text,
    /** Waits until the stream has carried an event of this type (events arrive after commit). */
    async waitFor(type: string, timeoutMs = 5000): Promise<void> {
      const until = Date.now() + timeoutMs;
      while (!text.includes(`event: ${type}\n`)) {
        if (Date.now() > until) throw new Error(`no ${type} event within ${timeoutMs} ms; got:\n${text}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      controller.abort();
      await pump;
    },
  };
}

/** Every row of every table, blobs as hex: what a reader of the database file would see. */
export function dumpTables(t: TestCore): { text: string; blobs: Buffer[] } {
  const sqlite = t.core.database.sqlite;
  const tables = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
  const blobs: Buffer[] = [];
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows = sqlite.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[];
    parts.push(
      name +
        JSON.stringify(rows, (_k, v: unknown) => {
          if (v && typeof v === 'object' && (v as { type?: string }).type === 'Buffer') {
            const buf = Buffer.from((v as { data: number[] }).data);
            blobs.push(buf);
            return buf.toString('hex');
          }
          return v;
        }),
    );
  }
  return { text: parts.join('\n'), blobs };
}

/**
 * The forms a leaked value would take on disk or in a response, computed here independently of
 * the redaction code: clear (and its terminal form), JSON-escaped, URL-encoded, and base64 /
 * base64url, whole or as the part of a longer base64 stream made only of its bytes (any alignment).
 */
export function leakForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const forms = new Set([value, value.replace(/\n/g, '\r\n'), JSON.stringify(value).slice(1, -1), encodeURIComponent(value), new URLSearchParams({ q: value }).toString().slice(2)]);
  for (const encoding of ['base64', 'base64url'] as const) {
    forms.add(bytes.toString(encoding).replace(/=+$/, ''));
    for (let skip = 0; skip < 3; skip++) {
      const whole = Math.floor((bytes.length - skip) / 3) * 3;
      forms.add(bytes.subarray(skip, skip + whole).toString(encoding));
    }
  }
  return [...forms];
}

/** Every regular file under a directory (database, WAL, logs, transcripts, backups, exports). */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : e.isFile() ? [p] : [];
  });
}

/** `where: form-kind` for every place under `home` (and in `extra` texts) holding a form of `value`. */
export function scanForLeaks(home: string, value: string, extra: [string, string | Buffer][] = []): string[] {
  const forms = leakForms(value).map((f) => Buffer.from(f, 'utf8'));
  const hits: string[] = [];
  const haystacks: [string, Buffer][] = [
    ...filesUnder(home).map((f): [string, Buffer] => [path.relative(home, f), readFileSync(f)]),
    ...extra.map(([where, text]): [string, Buffer] => [where, Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8')]),
  ];
  for (const [where, data] of haystacks) {
    for (const form of forms) if (data.includes(form)) hits.push(`${where}: ${form.toString('utf8').slice(0, 40)}`);
  }
  return hits;
}
