import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import type { ExecutionContext } from '@service/adapter-utils';
import { processAdapter } from '../../../adapters/process/descriptor.js';
import { httpAdapter } from '../../../adapters/http/descriptor.js';
import { resolveCommand } from '@service/adapter-utils';

function context(config: Record<string, unknown>, extra: Partial<ExecutionContext> = {}) {
  const logs: { stream: string; chunk: string }[] = [];
  const meta: Record<string, unknown>[] = [];
  const ctx: ExecutionContext = {
    config,
    agent: { id: 'agent-1', name: 'Ada', companyId: 'company-1' },
    runtime: { apiUrl: 'http://127.0.0.1:3100', apiKey: 'run-token', env: { EXTRA: 'from-config' }, sessionParams: null, prompt: 'Do the work', wakeReason: 'manual' },
    context: { taskId: 'ACME-1', taskTitle: 'Plan' },
    runId: 'run-1',
    onLog: (stream, chunk) => logs.push({ stream, chunk }),
    onMeta: (m) => meta.push(m),
    ...extra,
  };
  const text = (stream: string) => logs.filter((l) => l.stream === stream).map((l) => l.chunk).join('');
  return { ctx, logs, meta, text };
}

describe('process adapter', () => {
  it('runs the command with the run environment and the prompt on stdin', async () => {
    const config = processAdapter.configSchema.parse({
      command: 'sh',
      args: ['-c', 'read p; echo "$p|$SERVICE_RUN_ID|$SERVICE_AGENT_ID|$SERVICE_TASK_ID|$SERVICE_API_KEY|$EXTRA|$SERVICE_PROMPT|$(pwd)"; echo warn >&2'],
    });
    const { ctx, text, meta } = context(config);
    const result = await processAdapter.execute(ctx);
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(text('stdout')).toBe(`Do the work|run-1|agent-1|ACME-1|run-token|from-config|Do the work|${os.tmpdir()}\n`);
    expect(text('stderr')).toBe('warn\n');
    expect(meta.some((m) => typeof m.pid === 'number')).toBe(true);
  });

  it('always enforces its timeout', async () => {
    const config = processAdapter.configSchema.parse({ command: 'sleep', args: ['30'], timeoutSec: 1, graceMs: 200 });
    const result = await processAdapter.execute(context(config).ctx);
    expect(result.timedOut).toBe(true);
  });

  it('stops when the run is cancelled', async () => {
    const controller = new AbortController();
    const config = processAdapter.configSchema.parse({ command: 'sleep', args: ['30'], graceMs: 200 });
    setTimeout(() => controller.abort(), 200);
    const result = await processAdapter.execute(context(config, { signal: controller.signal }).ctx);
    expect(result.signal).toBe('SIGTERM');
  });

  it('checks its environment', async () => {
    const good = await processAdapter.testEnvironment({ config: { command: 'sh' }, env: {} });
    expect(good).toMatchObject({ adapterType: 'process', status: 'pass' });
    expect(good.checks.map((c) => [c.level, c.code])).toEqual([['info', 'cwd_exists'], ['info', 'cli_detected']]);
    expect(Date.parse(good.testedAt)).not.toBeNaN();
    const bad = await processAdapter.testEnvironment({ config: { command: 'no-such-cli-xyz', cwd: '/no/such/dir' }, env: {} });
    expect(bad.status).toBe('fail');
    expect(bad.checks.map((c) => [c.level, c.code])).toEqual([['error', 'cwd_missing'], ['error', 'cli_not_found']]);
    expect(bad.checks[1]!.hint).toBeTruthy();
    const relative = await processAdapter.testEnvironment({ config: { command: 'sh', cwd: 'work/here' }, env: {} });
    expect(relative.checks[0]).toMatchObject({ level: 'error', code: 'invalid_cwd' });
    expect(relative.status).toBe('fail');
    expect(resolveCommand('sh')?.path).toMatch(/\/sh$/);
    expect(resolveCommand('/bin/sh')).toMatchObject({ path: '/bin/sh', command: '/bin/sh', prefixArgs: [] });
    expect(resolveCommand('./nope')).toBeNull();
  });
});

describe('http adapter', () => {
  let server: http.Server | undefined;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  async function listen(handler: http.RequestListener): Promise<string> {
    server = http.createServer(handler);
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/hook`;
  }

  it('posts the run context with the run token and records the answer', async () => {
    let received: any;
    let auth: string | undefined;
    const url = await listen((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received = JSON.parse(body);
        auth = req.headers['x-hook-secret'] as string;
        res.writeHead(202, { 'content-type': 'application/json' }).end('{"accepted":true}');
      });
    });
    const config = httpAdapter.configSchema.parse({ url, headers: { 'X-Hook-Secret': 'resolved-value' } });
    const { ctx, text, meta } = context(config);
    const result = await httpAdapter.execute(ctx);
    expect(result.exitCode).toBe(0);
    expect(received).toMatchObject({ runId: 'run-1', agent: { id: 'agent-1' }, context: { taskId: 'ACME-1' }, prompt: 'Do the work', api: { token: 'run-token' } });
    expect(auth).toBe('resolved-value');
    expect(text('stdout')).toContain('HTTP 202');
    expect(text('stdout')).toContain('{"accepted":true}');
    expect(meta).toContainEqual(expect.objectContaining({ httpStatus: 202 }));
  });

  it('fails on a non-2xx answer and on timeout', async () => {
    const url = await listen((req, res) => {
      if (req.url?.includes('slow')) return; // never answers
      res.writeHead(500).end('boom');
    });
    const failed = await httpAdapter.execute(context(httpAdapter.configSchema.parse({ url })).ctx);
    expect(failed).toMatchObject({ exitCode: 1, errorCode: 'http_status' });
    const slow = await httpAdapter.execute(context(httpAdapter.configSchema.parse({ url: url + '?slow', timeoutSec: 1 })).ctx);
    expect(slow).toMatchObject({ timedOut: true, errorCode: 'timeout' });
  });

  it('reports an unreachable endpoint', async () => {
    const result = await httpAdapter.testEnvironment({ config: { url: 'http://127.0.0.1:1/nothing' }, env: {} });
    expect(result).toMatchObject({ adapterType: 'http', status: 'fail', checks: [{ level: 'error', code: 'endpoint_unreachable' }] });
  });
});

describe('process adapter idle timeout', () => {
  it('fails a run that prints nothing for idleTimeoutSec', async () => {
    const config = processAdapter.configSchema.parse({ command: 'sh', args: ['-c', 'echo start; sleep 30'], idleTimeoutSec: 1, graceMs: 200 });
    const result = await processAdapter.execute(context(config).ctx);
    expect(result).toMatchObject({ errorCode: 'idle_timeout', timedOut: false });
  });
});
