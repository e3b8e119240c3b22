import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root (three levels above test/api/durability). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** The built CLI; `npm test` builds it before vitest runs. */
export const CLI = path.join(ROOT, 'dist', 'main', 'cli', 'headcount.bundle.mjs');

/** Fails loudly (never skips) when the build is missing. */
export function requireBuiltCli(): void {
  if (!existsSync(CLI)) {
    throw new Error(`${CLI} is missing: these tests run the built CLI. Run \`npm run build\` first (npm test does it).`);
  }
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  port: number;
  /** Everything written to stdout so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const LISTENING = /^listening on (http:\/\/127\.0\.0\.1:(\d+))\n/;

/** Spawns `node dist/main/cli/headcount.bundle.mjs serve --port <port>` and waits for its listening line. */
export async function spawnServe(
  home: string,
  options: { port?: number; env?: Record<string, string | undefined>; timeoutMs?: number } = {},
): Promise<ServeProcess> {
  requireBuiltCli();
  const env: NodeJS.ProcessEnv = { ...process.env, SERVICE_HOME: home };
  delete env.SERVICE_BOARD_TOKEN;
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const child = spawn(process.execPath, [CLI, 'serve', '--port', String(options.port ?? 0)], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (d: string) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const listening = new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not print its listening line in time; stderr:\n${err}`)), options.timeoutMs ?? 15_000);
    child.stdout!.on('data', (d: string) => {
      out += d;
      const m = LISTENING.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (code ${code}, signal ${signal}) before listening; stdout:\n${out}\nstderr:\n${err}`));
    });
  });
  const m = await listening;
  return { child, url: m[1]!, port: Number(m[2]), stdout: () => out, stderr: () => err, exited };
}

/** Stops a child if it is still running (test cleanup). */
export async function stopProcess(p: ServeProcess | undefined, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill(signal);
  await p.exited;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * One request on its own connection (no keep-alive pool), so a response can be told apart from a
 * connection that was refused or reset. Rejects with `error.responseStarted = true` when the
 * connection broke after the status line arrived, i.e. a truncated response.
 */
export function rawRequest(
  url: string,
  method: string,
  urlPath: string,
  options: { token?: string; body?: unknown } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: http.OutgoingHttpHeaders = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    let started = false;
    const fail = (e: Error) => reject(Object.assign(e, { responseStarted: started }));
    const req = http.request(url + urlPath, { method, headers, agent: false }, (res) => {
      started = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('error', fail);
      res.on('aborted', () => fail(new Error('response aborted')));
      res.on('end', () => {
        if (!res.complete) fail(new Error('response incomplete'));
        else resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
      });
    });
    req.on('error', fail);
    req.end(payload);
  });
}

export const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
