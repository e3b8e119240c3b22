import type { TranscriptEntry } from '../../../adapters/utils/src/transcript.js';
import type { UiParserResponse } from '../../../main/core/plugins/contract.js';

/** The UI parser contract this renderer reads (adapters/utils/src/transcript.ts UI_PARSER_CONTRACT_VERSION). */
export const RENDERER_PARSER_CONTRACT = '1.0.0';

export interface ParseLine {
  text: string;
  ts: string;
}

/** What the host needs of a Worker (a browser module Worker; tests give a Node worker thread). */
export interface WorkerLike {
  postMessage(message: unknown): void;
  terminate(): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}
export type WorkerFactory = (moduleSource: string) => WorkerLike;

const major = (v: string | null | undefined) => {
  const m = v ? /^v?(\d+)(\.|$)/.exec(v.trim()) : null;
  return m ? Number(m[1]) : null;
};

/** The generic shell parser: each line is a stdout entry. */
export const shellParse = (lines: ParseLine[]): TranscriptEntry[][] => lines.map((l) => [{ kind: 'stdout', ts: l.ts, text: l.text }]);

/**
 * The local name a parser module binds its `parseStdoutLine` export to, or null. The worker runs
 * the parser's own source with a few lines appended (one module, so nothing is imported: the page's
 * CSP allows blob: for workers but not for scripts).
 */
export function parserBinding(source: string): string | null {
  if (/export\s+(?:async\s+)?function\s*\*?\s*parseStdoutLine\b/.test(source)) return 'parseStdoutLine';
  if (/export\s+(?:const|let|var)\s+parseStdoutLine\b/.test(source)) return 'parseStdoutLine';
  for (const m of source.matchAll(/export\s*\{([^}]*)\}(?!\s*from)/g)) {
    for (const spec of m[1]!.split(',')) {
      const [local, exported] = spec.trim().split(/\s+as\s+/);
      if ((exported ?? local)?.trim() === 'parseStdoutLine' && local && /^[A-Za-z_$][\w$]*$/.test(local.trim())) return local.trim();
    }
  }
  return null;
}

/** The worker's module: the parser, then a message loop around it. A line that throws is reported, not fatal. */
export function workerModule(source: string, binding: string): string {
  return `${source}
;const __hcParse = ${binding};
self.onmessage = (event) => {
  const { id, lines } = event.data;
  const entries = lines.map((l) => {
    try {
      const out = __hcParse(l.text, l.ts);
      return Array.isArray(out) ? out : { error: 'parseStdoutLine did not return an array' };
    } catch (err) {
      return { error: String((err && err.message) || err) };
    }
  });
  try {
    self.postMessage({ id, entries });
  } catch (err) {
    self.postMessage({ id, error: String((err && err.message) || err) });
  }
};
self.postMessage({ ready: true });
`;
}

const KINDS = new Set(['init', 'assistant', 'thinking', 'user', 'tool_call', 'tool_result', 'result', 'system', 'stderr', 'stdout']);
const s = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : String(v));
const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * A parser's output is untrusted: keep entries of known kinds with the fields the views read, typed;
 * anything else becomes the raw line.
 */
export function sanitize(value: unknown, line: ParseLine): TranscriptEntry[] {
  if (!Array.isArray(value)) return [{ kind: 'stdout', ts: line.ts, text: line.text }];
  const out: TranscriptEntry[] = [];
  for (const e of value as Record<string, unknown>[]) {
    if (!e || typeof e !== 'object' || !KINDS.has(e.kind as string)) {
      out.push({ kind: 'stdout', ts: line.ts, text: line.text });
      continue;
    }
    const ts = typeof e.ts === 'string' ? e.ts : line.ts;
    switch (e.kind) {
      case 'init':
        out.push({ kind: 'init', ts, model: e.model == null ? null : s(e.model), sessionId: e.sessionId == null ? null : s(e.sessionId) });
        break;
      case 'tool_call':
        out.push({ kind: 'tool_call', ts, name: s(e.name) || 'tool', input: e.input ?? null, id: e.id == null ? null : s(e.id) });
        break;
      case 'tool_result':
        out.push({ kind: 'tool_result', ts, toolUseId: e.toolUseId == null ? null : s(e.toolUseId), content: s(e.content), isError: e.isError === true });
        break;
      case 'result':
        out.push({
          kind: 'result',
          ts,
          text: s(e.text),
          isError: e.isError === true,
          subtype: e.subtype == null ? null : s(e.subtype),
          inputTokens: n(e.inputTokens),
          outputTokens: n(e.outputTokens),
          cachedTokens: n(e.cachedTokens),
          costUsd: typeof e.costUsd === 'number' && Number.isFinite(e.costUsd) ? e.costUsd : null,
          errors: Array.isArray(e.errors) ? e.errors.map(s) : [],
        });
        break;
      default:
        out.push({ kind: e.kind as 'assistant', ts, text: s(e.text) });
    }
  }
  return out;
}

/** Why the adapter's parser cannot be used (the shell parser is used then), or null. */
export function parserProblem(r: UiParserResponse | null): string | null {
  if (!r) return 'the parser could not be read';
  if (!r.compatible || !r.source) return r.reason === 'contract_version_mismatch' ? `contract ${r.contractVersion} is not ${RENDERER_PARSER_CONTRACT}` : 'the adapter has no UI parser';
  if (major(r.contractVersion) !== major(RENDERER_PARSER_CONTRACT)) return `contract ${r.contractVersion} is not ${RENDERER_PARSER_CONTRACT}`;
  if (!parserBinding(r.source)) return 'the parser exports no parseStdoutLine';
  return null;
}

/** A blob-URL module Worker: the browser's sandbox for adapter code (no DOM, no token, no page). */
export const browserWorkerFactory: WorkerFactory = (moduleSource) => {
  const url = URL.createObjectURL(new Blob([moduleSource], { type: 'text/javascript' }));
  const worker = new Worker(url, { type: 'module', name: 'transcript-parser' });
  // The worker has fetched its script once it answers (or fails); the URL is not needed after.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
  return worker as unknown as WorkerLike;
};

export interface ParserHostOptions {
  /** The ui-parser route's answer; null when it could not be read. */
  response: UiParserResponse | null;
  factory?: WorkerFactory;
  /** A batch the worker does not answer within this is a hung parser. */
  timeoutMs?: number;
  onFallback?: (reason: string) => void;
}

/**
 * Runs an adapter's UI parser in a Worker, batch by batch. Whatever goes wrong — no parser, a
 * different contract major, a module that does not load, a hung or crashing worker — the host
 * switches to the shell parser for good and says why; a single line the parser throws on is shown raw.
 */
export class ParserHost {
  mode: 'adapter' | 'shell' = 'shell';
  reason: string | null = null;
  private worker: WorkerLike | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { lines: ParseLine[]; resolve: (e: TranscriptEntry[][]) => void; timer: ReturnType<typeof setTimeout> }>();
  private readonly timeoutMs: number;

  constructor(private readonly options: ParserHostOptions) {
    this.timeoutMs = options.timeoutMs ?? 5000;
    const problem = parserProblem(options.response);
    if (problem) {
      this.fail(problem);
      return;
    }
    const r = options.response!;
    const binding = parserBinding(r.source!)!;
    try {
      const worker = (options.factory ?? browserWorkerFactory)(workerModule(r.source!, binding));
      worker.onmessage = (e) => this.onMessage(e.data);
      worker.onerror = (e) => this.fail(`the parser failed: ${describe(e)}`);
      this.worker = worker;
      this.mode = 'adapter';
    } catch (err) {
      this.fail(`the parser worker did not start: ${describe(err)}`);
    }
  }

  parse = (lines: ParseLine[]): Promise<TranscriptEntry[][]> => {
    if (!this.worker || lines.length === 0) return Promise.resolve(shellParse(lines));
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.fail('the parser did not answer in time'), this.timeoutMs);
      this.waiting.set(id, { lines, resolve, timer });
      try {
        this.worker!.postMessage({ id, lines });
      } catch (err) {
        this.fail(`the parser could not be called: ${describe(err)}`);
      }
    });
  };

  /** Ends the worker; batches still waiting settle as raw lines, so no caller waits forever. */
  dispose(): void {
    this.worker?.terminate();
    this.worker = null;
    for (const w of this.waiting.values()) {
      clearTimeout(w.timer);
      w.resolve(shellParse(w.lines));
    }
    this.waiting.clear();
  }

  private onMessage(data: unknown): void {
    const msg = data as { id?: number; entries?: unknown[]; error?: string; ready?: boolean };
    if (msg.ready || typeof msg.id !== 'number') return;
    const w = this.waiting.get(msg.id);
    if (!w) return;
    this.waiting.delete(msg.id);
    clearTimeout(w.timer);
    if (msg.error || !Array.isArray(msg.entries)) {
      w.resolve(shellParse(w.lines));
      return;
    }
    w.resolve(w.lines.map((line, i) => sanitize(msg.entries![i], line)));
  }

  private fail(reason: string): void {
    const hadWorker = this.worker !== null;
    this.worker?.terminate();
    this.worker = null;
    this.mode = 'shell';
    this.reason ??= reason;
    for (const w of this.waiting.values()) {
      clearTimeout(w.timer);
      w.resolve(shellParse(w.lines));
    }
    this.waiting.clear();
    if (hadWorker || this.options.response?.compatible) this.options.onFallback?.(this.reason);
  }
}

function describe(e: unknown): string {
  if (e && typeof e === 'object' && 'message' in e && typeof (e as { message: unknown }).message === 'string' && (e as { message: string }).message) return (e as { message: string }).message;
  return 'error event';
}
