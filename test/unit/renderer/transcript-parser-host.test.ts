import { afterEach, describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { ParserHost, parserBinding, sanitize, type WorkerFactory, type WorkerLike } from '../../../renderer/src/transcript/parser-host.js';

/**
 * The host runs its real worker module in a real worker thread: Node's worker threads stand in for
 * the browser's module Worker (the module only uses `self.onmessage` / `self.postMessage`, which the
 * shim below maps onto the thread's port). The e2e test runs it in Chromium's Worker.
 */
const SHIM = `import { parentPort } from 'node:worker_threads';
globalThis.self = { postMessage: (m) => parentPort.postMessage(m), set onmessage(fn) { parentPort.on('message', (data) => fn({ data })); } };
`;
const threads: Worker[] = [];
const nodeWorkerFactory: WorkerFactory = (source) => {
  const t = new Worker(new URL(`data:text/javascript,${encodeURIComponent(SHIM + source)}`));
  threads.push(t);
  const w: WorkerLike = { postMessage: (m) => t.postMessage(m), terminate: () => void t.terminate(), onmessage: null, onerror: null };
  t.on('message', (data) => w.onmessage?.({ data }));
  t.on('error', (err) => w.onerror?.(err));
  return w;
};
afterEach(async () => {
  await Promise.all(threads.splice(0).map((t) => t.terminate()));
});

const response = (source: string | null, contractVersion = '1.0.0', compatible = true) => ({
  type: 't',
  contractVersion,
  serverContractVersion: '1.0.0',
  compatible,
  source,
  ...(compatible ? {} : { reason: 'contract_version_mismatch' as const }),
});
const lines = (...t: string[]) => t.map((text) => ({ text, ts: '2026-11-22T00:00:00.000Z' }));

const JSON_PARSER = `
function parse(line, ts) {
  if (line === 'boom') throw new Error('bad line');
  const e = JSON.parse(line);
  if (e.type === 'text') return [{ kind: 'assistant', ts, text: e.text }];
  if (e.type === 'tool') return [{ kind: 'tool_call', ts, name: e.name, input: e.input, id: null }];
  return [{ kind: 'weird', ts }];
}
export { parse as parseStdoutLine };
`;

describe('ParserHost', () => {
  it('runs the adapter parser in a worker and sanitizes what it returns', async () => {
    const host = new ParserHost({ response: response(JSON_PARSER), factory: nodeWorkerFactory });
    expect(host.mode).toBe('adapter');
    const out = await host.parse(lines('{"type":"text","text":"hi"}', '{"type":"tool","name":"Bash","input":{"command":"ls"}}', '{"type":"other"}', 'boom'));
    expect(out[0]).toEqual([{ kind: 'assistant', ts: expect.any(String), text: 'hi' }]);
    expect(out[1]).toEqual([{ kind: 'tool_call', ts: expect.any(String), name: 'Bash', input: { command: 'ls' }, id: null }]);
    // an unknown kind, and a line the parser threw on, are shown raw
    expect(out[2]).toEqual([{ kind: 'stdout', ts: expect.any(String), text: '{"type":"other"}' }]);
    expect(out[3]).toEqual([{ kind: 'stdout', ts: expect.any(String), text: 'boom' }]);
    expect(host.mode).toBe('adapter');
    host.dispose();
  });

  it('falls back to the shell parser on a contract-major mismatch, without starting a worker', async () => {
    let started = 0;
    const host = new ParserHost({ response: response(JSON_PARSER, '2.0.0'), factory: (s) => (started++, nodeWorkerFactory(s)) });
    expect(host.mode).toBe('shell');
    expect(host.reason).toMatch(/2\.0\.0/);
    expect(started).toBe(0);
    expect(await host.parse(lines('{"type":"text","text":"hi"}'))).toEqual([[{ kind: 'stdout', ts: expect.any(String), text: '{"type":"text","text":"hi"}' }]]);
    // the server's own verdict counts too
    expect(new ParserHost({ response: response(null, '2.0.0', false) }).mode).toBe('shell');
    expect(new ParserHost({ response: null }).mode).toBe('shell');
  });

  it('falls back when the module fails to load, and answers the batch that was waiting', async () => {
    let reason = '';
    const host = new ParserHost({ response: response('export function parseStdoutLine( {'), factory: nodeWorkerFactory, onFallback: (r) => (reason = r) });
    const out = await host.parse(lines('x'));
    expect(out).toEqual([[{ kind: 'stdout', ts: expect.any(String), text: 'x' }]]);
    expect(host.mode).toBe('shell');
    expect(reason).toMatch(/parser failed/);
  });

  it('falls back when the parser hangs', async () => {
    const host = new ParserHost({ response: response('export function parseStdoutLine() { for (;;) {} }'), factory: nodeWorkerFactory, timeoutMs: 300 });
    const out = await host.parse(lines('x'));
    expect(out[0]![0]).toMatchObject({ kind: 'stdout', text: 'x' });
    expect(host.reason).toMatch(/did not answer/);
  });

  it('runs a built parser the way the server serves it', async () => {
    const file = path.resolve(import.meta.dirname, '../../../adapters/vendor-i-local/dist/ui-parser.js');
    if (!existsSync(file)) return; // built by `npm run build`
    const host = new ParserHost({ response: response(readFileSync(file, 'utf8')), factory: nodeWorkerFactory });
    const out = await host.parse(lines('not json at all'));
    expect(out[0]![0]).toMatchObject({ kind: 'stdout', text: 'not json at all' });
    expect(host.mode).toBe('adapter');
    host.dispose();
  });

  it('runs every built-in parser as served: one bundled module, mapping a JSON line in the worker', async () => {
    const dist = path.resolve(import.meta.dirname, '../../../dist/adapters');
    const files = existsSync(dist) ? readdirSync(dist).map((d) => path.join(dist, d, 'ui-parser.js')).filter((f) => existsSync(f)) : [];
    for (const file of files) {
      const host = new ParserHost({ response: response(readFileSync(file, 'utf8')), factory: nodeWorkerFactory });
      const out = await host.parse(lines('{"type":"no_such_event"}', 'plain'));
      expect(host.mode, file).toBe('adapter');
      expect(out[0]![0], file).toMatchObject({ kind: 'system', text: 'no_such_event' });
      expect(out[1]![0], file).toMatchObject({ kind: 'stdout', text: 'plain' });
      host.dispose();
    }
  });
});

describe('parserBinding and sanitize', () => {
  it('finds the local name of the parseStdoutLine export', () => {
    expect(parserBinding('export function parseStdoutLine(l, ts) {}')).toBe('parseStdoutLine');
    expect(parserBinding('export const parseStdoutLine = () => []')).toBe('parseStdoutLine');
    expect(parserBinding('function p() {}\nexport {\n  p as parseStdoutLine,\n  other\n};')).toBe('p');
    expect(parserBinding('export { parseStdoutLine } from "./x.js"')).toBeNull();
    expect(parserBinding('export default {}')).toBeNull();
  });

  it('coerces entry fields to their contract types', () => {
    const [e] = sanitize([{ kind: 'result', text: 5, isError: 'yes', inputTokens: 'many', costUsd: 0.5, errors: [1] }], { text: 'l', ts: 't' });
    expect(e).toEqual({ kind: 'result', ts: 't', text: '5', isError: false, subtype: null, inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0.5, errors: ['1'] });
  });
});
