import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { splitLines, type ExecutionContext, type ExecutionResult } from '@service/adapter-utils';
import { vendorHGatewayAdapter } from '../../../adapters/vendor-h-gateway/descriptor.js';
import { createServerAdapter } from '../../../adapters/vendor-h-gateway/index.js';
import { parseStdoutLine } from '../../../adapters/vendor-h-gateway/ui-parser.js';
import { cliFormatter } from '../../../adapters/vendor-h-gateway/cli-formatter.js';
import { parseEvent } from '../../../adapters/vendor-h-gateway/protocol.js';
import { createBuiltinRegistry } from '../../../adapters/registry.js';
import { startGatewayServer, type GatewayRun, type GatewayServer, type GatewayServerOptions } from '../../fixtures/gateway-server.js';
import { expectServedParserSelfContained } from './served-ui-parser.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../../adapters/vendor-h-gateway/fixtures');
const TOKEN = 'gw-secret-token';
let server: GatewayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const start = async (handler: GatewayServerOptions['handler'], options: Partial<GatewayServerOptions> = {}) => (server = await startGatewayServer({ token: TOKEN, handler, ...options }));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const happy = async (run: GatewayRun) => {
  run.send({ type: 'accepted', runId: run.request.runId, sessionKey: run.request.sessionKey ?? 'agent:builder:task:ACME-1' });
  run.log('working\n');
  run.log('careful\n', 'stderr');
  run.send({ type: 'usage', provider: 'anthropic', model: 'claude-sonnet-4-5', inputTokens: 1000, outputTokens: 100, cachedInputTokens: 200, costUsd: null });
  run.send({ type: 'result', status: 'succeeded', summary: 'Finished ACME-1.', sessionKey: run.request.sessionKey ?? 'agent:builder:task:ACME-1' });
};

async function execute(config: Record<string, unknown>, options: { token?: string | null; sessionParams?: Record<string, unknown> | null; signal?: AbortSignal } = {}) {
  const log: string[] = [];
  const meta: Record<string, unknown> = {};
  const ctx: ExecutionContext = {
    config: vendorHGatewayAdapter.configSchema.parse({ agentId: 'builder', ...config }),
    agent: { id: 'agent-1', name: 'Gate', companyId: 'company-1' },
    runtime: { apiUrl: 'http://127.0.0.1:9', apiKey: 'run-token', env: options.token === null ? {} : { GATEWAY_TOKEN: options.token ?? TOKEN }, sessionParams: options.sessionParams ?? null, prompt: 'Work on ACME-1.', wakeReason: 'assignment' },
    context: { taskId: 'ACME-1', taskTitle: 'First' },
    runId: 'run-1',
    onLog: (_s, chunk) => log.push(chunk),
    onMeta: (m) => Object.assign(meta, m),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const result: ExecutionResult = await vendorHGatewayAdapter.execute(ctx);
  return { result, log: log.join(''), meta };
}

describe('vendor_h_gateway execute() against a loopback gateway', () => {
  for (const transport of ['ws', 'http'] as const) {
    it(`streams a run to its result: logs, usage, session, run context (${transport})`, async () => {
      const gw = await start(happy);
      const { result, log, meta } = await execute({ url: transport === 'ws' ? gw.wsUrl : gw.httpUrl });
      expect(result).toMatchObject({
        exitCode: 0,
        timedOut: false,
        summary: 'Finished ACME-1.',
        sessionParams: { sessionKey: 'agent:builder:task:ACME-1' },
        usage: { provider: 'anthropic', model: 'claude-sonnet-4-5', inputTokens: 1000, outputTokens: 100, cachedInputTokens: 200, costStatus: 'priced' },
      });
      expect(result.errorCode).toBeUndefined();
      expect(gw.runs[0]!.request).toMatchObject({
        type: 'run',
        protocol: 1,
        runId: 'run-1',
        agentId: 'builder',
        sessionKey: null,
        prompt: 'Work on ACME-1.',
        context: { taskId: 'ACME-1', taskTitle: 'First', wakeReason: 'assignment', headcountAgentId: 'agent-1', companyId: 'company-1' },
        env: { SERVICE_API_URL: 'http://127.0.0.1:9', SERVICE_API_KEY: 'run-token', SERVICE_RUN_ID: 'run-1', SERVICE_AGENT_ID: 'agent-1', SERVICE_TASK_ID: 'ACME-1' },
      });
      // The transcript is the event stream, one JSON line each; the gateway token is never in it.
      expect(splitLines(log).map((l) => JSON.parse(l).type)).toEqual(['accepted', 'log', 'log', 'usage', 'result']);
      expect(log).not.toContain(TOKEN);
      expect(meta).toMatchObject({ url: transport === 'ws' ? gw.wsUrl : gw.httpUrl, sessionId: 'agent:builder:task:ACME-1', resumed: false });
    });

    it(`refuses a wrong token with a clear code, never reaching the agent (${transport})`, async () => {
      const gw = await start(happy);
      const { result } = await execute({ url: transport === 'ws' ? gw.wsUrl : gw.httpUrl }, { token: 'wrong' });
      expect(result).toMatchObject({ exitCode: null, errorCode: 'gateway_auth_failed', errorMessage: expect.stringContaining('401'), errorHint: expect.stringContaining('GATEWAY_TOKEN'), usage: null });
      expect(gw.runs).toHaveLength(0);
    });

    it(`the wait timeout cancels the run on the gateway (${transport})`, async () => {
      const gw = await start(async (run) => {
        run.send({ type: 'accepted', runId: run.request.runId, sessionKey: null });
        await run.cancelledSignal;
      });
      const started = Date.now();
      const { result } = await execute({ url: transport === 'ws' ? gw.wsUrl : gw.httpUrl, timeoutSec: 1 });
      expect(result).toMatchObject({ timedOut: true, errorCode: 'timeout' });
      expect(Date.now() - started).toBeLessThan(5000);
      // Over HTTP the dropped stream is seen too; the cancel frame says why.
      await expect.poll(() => gw.runs[0]!.cancels.filter((c) => c.type === 'cancel')).toEqual([{ type: 'cancel', runId: 'run-1', reason: 'timeout' }]);
    });

    it(`a cancel (AbortSignal) tells the gateway and closes (${transport})`, async () => {
      const gw = await start(async (run) => {
        run.send({ type: 'accepted', runId: run.request.runId, sessionKey: null });
        await run.cancelledSignal;
      });
      const abort = new AbortController();
      setTimeout(() => abort.abort(), 300);
      const { result } = await execute({ url: transport === 'ws' ? gw.wsUrl : gw.httpUrl }, { signal: abort.signal });
      expect(result).toMatchObject({ timedOut: false, errorCode: 'cancelled' });
      await expect.poll(() => gw.runs[0]!.cancels.length).toBeGreaterThan(0);
      // Cancelled before it started: nothing reaches the gateway.
      const early = await execute({ url: transport === 'ws' ? gw.wsUrl : gw.httpUrl }, { signal: AbortSignal.abort() });
      expect(early.result).toMatchObject({ errorCode: 'cancelled' });
      expect(gw.runs).toHaveLength(1);
    });

    it(`a malformed frame fails the run with a protocol error, never a throw (${transport})`, async () => {
      for (const frame of ['not json at all', '[1,2]', '{"type":"teleport","seq":2}', '{"type":"usage","seq":2,"provider":"x","model":"y","inputTokens":-5,"outputTokens":1}', '{"type":"result","seq":2,"status":"maybe"}']) {
        const gw = await start((run) => {
          run.send({ type: 'accepted', runId: run.request.runId, sessionKey: null });
          run.raw(frame);
        });
        const { result } = await execute({ url: transport === 'ws' ? gw.wsUrl : gw.httpUrl, timeoutSec: 10 });
        expect(result, frame).toMatchObject({ errorCode: 'gateway_protocol_error', errorMessage: expect.stringMatching(/^The gateway sent/) });
        await server!.close();
        server = undefined;
      }
    });
  }

  it('a binary WebSocket frame is a protocol error, and a token refused by close code 4401 is an auth failure', async () => {
    let gw = await start((run) => run.raw(Buffer.from([0xde, 0xad])));
    expect((await execute({ url: gw.wsUrl })).result).toMatchObject({ errorCode: 'gateway_protocol_error', errorMessage: 'The gateway sent a binary frame' });
    await gw.close();
    gw = await start(happy, { refuse: 'close' });
    expect((await execute({ url: gw.wsUrl }, { token: 'wrong' })).result).toMatchObject({ errorCode: 'gateway_auth_failed', errorMessage: 'invalid gateway token' });
  });

  it('reconnects after a drop and re-attaches: missed events are replayed once, seen ones skipped', async () => {
    const gw = await start(async (run) => {
      run.send({ type: 'accepted', runId: run.request.runId, sessionKey: 'k1' });
      run.log('before the drop\n');
      run.drop();
      run.log('while away\n');
      await sleep(400);
      run.send({ type: 'result', status: 'succeeded', summary: 'Survived.', sessionKey: 'k1' });
    });
    const { result, log } = await execute({ url: gw.wsUrl, reconnectDelayMs: 50 });
    expect(result).toMatchObject({ exitCode: 0, summary: 'Survived.', sessionParams: { sessionKey: 'k1' } });
    expect(gw.received.filter((f) => f.type === 'attach')).toEqual([{ type: 'attach', protocol: 1, runId: 'run-1', afterSeq: 2 }]);
    expect(splitLines(log).map((l) => JSON.parse(l).seq)).toEqual([1, 2, 3, 4]);
  });

  it('gives up after the reconnection attempts, and a gateway that forgot the run fails it', async () => {
    const gw = await start(async (run) => {
      run.send({ type: 'accepted', runId: run.request.runId, sessionKey: null });
      gw.runs.splice(0);
      run.drop();
    });
    const { result } = await execute({ url: gw.wsUrl, reconnectDelayMs: 20, reconnectAttempts: 2 });
    expect(result).toMatchObject({ errorCode: 'unknown_run', errorMessage: 'no run run-1' });
    const none = await execute({ url: gw.wsUrl, reconnectAttempts: 0 });
    expect(none.result).toMatchObject({ errorCode: 'gateway_disconnected' });
  });

  it('passes the remote outcome: unknown session clears the key, rate limit keeps its reset time, errors keep their code', async () => {
    const gw = await start((run) => {
      run.send({ type: 'accepted', runId: run.request.runId, sessionKey: run.request.sessionKey });
      if (run.request.sessionKey === 'stale') return run.send({ type: 'result', status: 'failed', errorCode: 'unknown_session', errorMessage: 'no session stale' });
      if (run.request.sessionKey === 'limited') return run.send({ type: 'result', status: 'failed', errorCode: 'rate_limited', errorMessage: 'Usage limit reached', rateLimitResetAt: '2026-11-22T18:00:00Z' });
      run.send({ type: 'error', code: 'agent_crashed', message: 'exit 137' });
    });
    expect((await execute({ url: gw.wsUrl }, { sessionParams: { sessionKey: 'stale' } })).result).toMatchObject({ exitCode: 1, errorCode: 'unknown_session', sessionParams: null });
    expect((await execute({ url: gw.wsUrl }, { sessionParams: { sessionKey: 'limited' } })).result).toMatchObject({ exitCode: 1, errorCode: 'rate_limited', rateLimitResetAt: '2026-11-22T18:00:00.000Z' });
    expect((await execute({ url: gw.wsUrl })).result).toMatchObject({ exitCode: 1, errorCode: 'agent_crashed', errorMessage: 'exit 137' });
    expect(gw.runs.map((r) => r.request.sessionKey)).toEqual(['stale', 'limited', null]);
  });

  it('fails clearly without a token or a reachable gateway', async () => {
    expect((await execute({ url: 'ws://127.0.0.1:9/gw' }, { token: null })).result).toMatchObject({ errorCode: 'gateway_token_missing', errorHint: expect.any(String) });
    expect((await execute({ url: 'ws://127.0.0.1:9/gw' })).result).toMatchObject({ errorCode: 'gateway_unreachable', errorMessage: expect.stringContaining('ECONNREFUSED') });
    expect((await execute({ url: 'http://127.0.0.1:9/gw' })).result).toMatchObject({ errorCode: 'gateway_unreachable' });
  });
});

describe('vendor_h_gateway testEnvironment', () => {
  const test = (config: Record<string, unknown>, env: Record<string, string> = { GATEWAY_TOKEN: TOKEN }) => vendorHGatewayAdapter.testEnvironment({ config: { agentId: 'builder', ...config }, env });

  it('checks the URL shape, the token, reachability and auth over both transports', async () => {
    const bad = await test({ url: 'ftp://example.com' });
    expect(bad).toMatchObject({ status: 'fail', checks: [{ level: 'error', code: 'invalid_config', message: expect.stringContaining('url') }] });
    const gw = await start(happy, { agents: ['builder', 'reviewer'] });
    for (const url of [gw.wsUrl, gw.httpUrl]) {
      const ok = await test({ url });
      expect(ok.status).toBe('pass');
      expect(ok.checks.map((c) => c.code)).toEqual(['url_valid', 'gateway_reachable']);
      const wrong = await test({ url }, { GATEWAY_TOKEN: 'wrong' });
      expect(wrong.checks.at(-1)).toMatchObject({ level: 'error', code: 'gateway_auth_failed' });
      expect((await test({ url, agentId: 'nobody' })).checks.at(-1)).toMatchObject({ level: 'warn', code: 'agent_unknown' });
    }
    expect((await test({ url: gw.wsUrl }, {})).checks.at(-1)).toMatchObject({ level: 'error', code: 'token_missing' });
    expect((await test({ url: 'ws://127.0.0.1:9/gw' })).checks.at(-1)).toMatchObject({ level: 'error', code: 'gateway_unreachable' });
    // A token in clear text to another machine deserves a warning (nothing listens there: unreachable fast).
    const remote = await test({ url: 'ws://192.0.2.1:9/gw', connectTimeoutSec: 1 });
    expect(remote.checks.find((c) => c.code === 'insecure_transport')).toMatchObject({ level: 'warn' });
  });
});

describe('vendor_h_gateway protocol and UI parser', () => {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.jsonl'));

  it('every fixture line is a valid protocol event, and replays to the same entries twice', () => {
    for (const file of files) {
      const lines = splitLines(readFileSync(path.join(FIXTURES, file), 'utf8'));
      for (const line of lines) expect(() => parseEvent(line)).not.toThrow();
      const once = lines.flatMap((l, i) => parseStdoutLine(l, `t${i}`));
      expect(lines.flatMap((l, i) => parseStdoutLine(l, `t${i}`))).toEqual(once);
      expect(once.length).toBeGreaterThan(0);
    }
  });

  it('reads a run into init, output, usage and result', () => {
    const entries = splitLines(readFileSync(path.join(FIXTURES, 'success.jsonl'), 'utf8')).flatMap((l) => parseStdoutLine(l, 'ts'));
    expect(entries.map((e) => e.kind)).toEqual(['init', 'stdout', 'stdout', 'stderr', 'system', 'result']);
    expect(entries[0]).toEqual({ kind: 'init', ts: 'ts', model: null, sessionId: 'agent:builder:task:ACME-1' });
    expect(entries.at(-1)).toMatchObject({ kind: 'result', isError: false, text: 'Finished ACME-1.' });
    const failed = splitLines(readFileSync(path.join(FIXTURES, 'failed.jsonl'), 'utf8')).flatMap((l) => parseStdoutLine(l, 'ts'));
    expect(failed.at(-1)).toMatchObject({ kind: 'result', isError: true, subtype: 'rate_limited', errors: ['Usage limit reached'] });
    expect(cliFormatter.formatLine(readFileSync(path.join(FIXTURES, 'error.jsonl'), 'utf8').split('\n')[1]!, { color: false })).toContain('agent_crashed: The remote agent process exited with code 137');
  });

  it('never throws on garbage; the protocol parser only throws its own error', async () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify({ type: 'log', chunk: v, stream: v })), fc.jsonValue().map((v) => JSON.stringify({ type: 'result', status: 'failed', errorCode: v, summary: v }))), (line) => {
        const entries = parseStdoutLine(line, 'ts');
        try {
          parseEvent(line);
        } catch (err) {
          if ((err as { code?: string }).code !== 'gateway_protocol_error') return false;
        }
        return Array.isArray(entries) && JSON.stringify(entries) === JSON.stringify(parseStdoutLine(line, 'ts'));
      }),
      { numRuns: 500 },
    );
    await expectServedParserSelfContained('vendor-h-gateway', parseStdoutLine);
  });

  it('is registered with the contract members', () => {
    const adapter = createServerAdapter();
    expect(createBuiltinRegistry().get('vendor_h_gateway')).toBe(adapter);
    expect(adapter.agentConfigurationDoc).toMatch(/\*\*Use when\*\*/);
    expect(adapter.agentConfigurationDoc).toMatch(/\*\*Do not use when\*\*/);
    expect(adapter.sessionCodec!.deserialize({ sessionKey: 'agent:x' })).toEqual({ sessionKey: 'agent:x' });
    expect(adapter.sessionCodec!.deserialize({ sessionKey: ' bad' })).toBeNull();
    expect(adapter.configSchema.safeParse({ url: 'ws://h/x', agentId: 'a', tokenEnv: 'SERVICE_X' }).success).toBe(true);
    expect(adapter.configSchema.safeParse({ url: 'ws://h/x' }).success).toBe(false);
  });
});
