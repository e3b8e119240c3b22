import { asNumber, asString, environmentResult, type EnvironmentTestContext, type EnvironmentTestResult, type ExecutionContext, type ExecutionResult } from '@service/adapter-utils';

/** Response bodies are recorded in the transcript up to this size; the rest is cut with a note. */
export const MAX_RECORDED_RESPONSE = 64 * 1024;

/**
 * Sends the heartbeat as a webhook: the run context, the prompt and a run token the external agent
 * uses to call back into the API. A 2xx answer is success; anything else, a network error or the
 * timeout is a failed run with the reason recorded.
 */
export async function executeHttp(ctx: ExecutionContext): Promise<ExecutionResult> {
  const url = asString(ctx.config.url);
  const method = asString(ctx.config.method, 'POST') || 'POST';
  const timeoutMs = asNumber(ctx.config.timeoutSec, 30) * 1000;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'headcount-http-adapter' };
  for (const [k, v] of Object.entries((ctx.config.headers as Record<string, unknown> | undefined) ?? {})) headers[k.toLowerCase()] = asString(v);
  const payload = {
    runId: ctx.runId,
    agent: { id: ctx.agent.id, name: ctx.agent.name, companyId: ctx.agent.companyId },
    context: ctx.context,
    wakeReason: ctx.runtime.wakeReason ?? null,
    prompt: ctx.runtime.prompt,
    api: { url: ctx.runtime.apiUrl, token: ctx.runtime.apiKey, runIdHeader: 'X-Service-Run-Id' },
  };
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
  ctx.onMeta({ url, method });
  const started = Date.now();
  try {
    const res = await fetch(url, { method, headers, body: JSON.stringify(payload), signal, redirect: 'manual' });
    const text = await res.text();
    const recorded = text.length > MAX_RECORDED_RESPONSE ? `${text.slice(0, MAX_RECORDED_RESPONSE)}\n[response cut at ${MAX_RECORDED_RESPONSE} characters]` : text;
    ctx.onMeta({ httpStatus: res.status, durationMs: Date.now() - started });
    ctx.onLog('stdout', `HTTP ${res.status} ${res.statusText}\n${recorded}${recorded.endsWith('\n') || !recorded ? '' : '\n'}`);
    if (res.ok) return { exitCode: 0, timedOut: false };
    return { exitCode: 1, timedOut: false, errorCode: 'http_status', errorMessage: `The webhook answered ${res.status}` };
  } catch (err) {
    const timedOut = timeout.aborted;
    const message = err instanceof Error ? err.message : String(err);
    ctx.onLog('stderr', `${timedOut ? `No answer within ${timeoutMs} ms` : `Request failed: ${message}`}\n`);
    return {
      exitCode: null,
      timedOut,
      errorCode: timedOut ? 'timeout' : ctx.signal?.aborted ? 'cancelled' : 'network_error',
      errorMessage: timedOut ? `No answer within ${timeoutMs} ms` : message,
    };
  }
}

/** The webhook URL answers at all (OPTIONS changes nothing on the far side). */
export async function testHttpEnvironment(ctx: EnvironmentTestContext): Promise<EnvironmentTestResult> {
  const url = asString(ctx.config.url);
  try {
    const res = await fetch(url, { method: 'OPTIONS', signal: AbortSignal.timeout(5000), redirect: 'manual' });
    await res.arrayBuffer();
    return environmentResult('http', [{ level: 'info', code: 'endpoint_reachable', message: `${url} answered ${res.status}` }]);
  } catch (err) {
    return environmentResult('http', [
      { level: 'error', code: 'endpoint_unreachable', message: `${url}: ${err instanceof Error ? err.message : String(err)}`, hint: 'Start the external agent service, or correct the URL.' },
    ]);
  }
}
