import { usageReport, type ExecutionContext, type ExecutionResult } from '@service/adapter-utils';
import { VendorHGatewayConfig } from './config.js';
import { PROTOCOL_VERSION, type RunRequest } from './protocol.js';
import { GatewayRunState } from './run-state.js';
import { sessionCodec } from './session.js';
import { runOverWebSocket } from './transport-ws.js';
import { runOverHttp } from './transport-http.js';
import type { TransportOutcome } from './outcome.js';

export const AUTH_HINT = 'Check the gateway token: put it in the agent env under the name set in tokenEnv (default GATEWAY_TOKEN), as a secret reference.';

/** The run's context for the remote agent: how to call Headcount back as this run. */
function serviceEnv(ctx: ExecutionContext): Record<string, string> {
  return {
    SERVICE_API_URL: ctx.runtime.apiUrl,
    SERVICE_API_KEY: ctx.runtime.apiKey,
    SERVICE_RUN_ID: ctx.runId,
    SERVICE_AGENT_ID: ctx.agent.id,
    SERVICE_COMPANY_ID: ctx.agent.companyId,
    ...(ctx.context.taskId ? { SERVICE_TASK_ID: ctx.context.taskId } : {}),
    ...(ctx.runtime.wakeReason ? { SERVICE_WAKE_REASON: ctx.runtime.wakeReason } : {}),
  };
}

/**
 * One heartbeat on a remote agent gateway: connect with the token, send the run, relay its events
 * into the transcript until the result, the wait timeout or a cancel. Never throws: every way a
 * gateway can fail ends as a failed run with its own error code.
 */
export async function executeGateway(ctx: ExecutionContext): Promise<ExecutionResult> {
  const config = VendorHGatewayConfig.parse(ctx.config);
  const token = ctx.runtime.env[config.tokenEnv] ?? '';
  if (!token) return { exitCode: null, timedOut: false, usage: null, errorCode: 'gateway_token_missing', errorMessage: `No gateway token: ${config.tokenEnv} is not set in the agent env`, errorHint: AUTH_HINT };
  const stored = sessionCodec.deserialize(ctx.runtime.sessionParams);
  const request: RunRequest = {
    type: 'run',
    protocol: PROTOCOL_VERSION,
    runId: ctx.runId,
    agentId: config.agentId,
    sessionKey: stored?.sessionKey ?? null,
    prompt: ctx.runtime.prompt,
    context: { taskId: ctx.context.taskId ?? null, taskTitle: ctx.context.taskTitle ?? null, wakeReason: ctx.runtime.wakeReason ?? null, headcountAgentId: ctx.agent.id, companyId: ctx.agent.companyId },
    env: serviceEnv(ctx),
    timeoutSec: config.timeoutSec,
  };
  const state = new GatewayRunState(ctx);
  const stop = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop.abort('timeout');
  }, config.timeoutSec * 1000);
  const onCancel = () => stop.abort('cancelled');
  ctx.signal?.addEventListener('abort', onCancel, { once: true });
  if (ctx.signal?.aborted) onCancel();
  ctx.onMeta({ url: config.url, gatewayAgentId: config.agentId, resumed: request.sessionKey !== null });
  try {
    const transport = /^wss?:/i.test(config.url) ? runOverWebSocket : runOverHttp;
    const outcome = await transport(config, token, request, state, stop.signal).catch((err: unknown): TransportOutcome => ({ kind: 'disconnected', message: err instanceof Error ? err.message : String(err) }));
    return toResult(state, outcome, timedOut, config, request.sessionKey);
  } finally {
    clearTimeout(timer);
    ctx.signal?.removeEventListener('abort', onCancel);
  }
}

function toResult(state: GatewayRunState, outcome: TransportOutcome, timedOut: boolean, config: VendorHGatewayConfig, sentKey: string | null): ExecutionResult {
  const u = state.usage;
  const usage = u ? usageReport({ provider: u.provider, model: u.model, inputTokens: u.inputTokens, outputTokens: u.outputTokens, cachedInputTokens: u.cachedInputTokens, reportedCostUsd: u.costUsd }) : null;
  const end = state.end;
  const base: ExecutionResult = {
    exitCode: end?.type === 'result' && end.status === 'succeeded' ? 0 : end ? 1 : null,
    timedOut: outcome.kind === 'stopped' && timedOut,
    usage,
    summary: end?.type === 'result' ? end.summary : null,
    ...(state.sessionKey ? { sessionParams: sessionCodec.serialize({ sessionKey: state.sessionKey }) as Record<string, unknown> } : {}),
  };
  switch (outcome.kind) {
    case 'stopped':
      return timedOut
        ? { ...base, errorCode: 'timeout', errorMessage: `No result from the gateway within ${config.timeoutSec} s (the run was cancelled there)` }
        : { ...base, errorCode: 'cancelled', errorMessage: 'The run was cancelled; the gateway was told to stop' };
    case 'auth':
      return { ...base, errorCode: 'gateway_auth_failed', errorMessage: outcome.message, errorHint: AUTH_HINT };
    case 'protocol':
      return { ...base, errorCode: 'gateway_protocol_error', errorMessage: outcome.message };
    case 'unreachable':
      return { ...base, errorCode: 'gateway_unreachable', errorMessage: `Could not connect to ${config.url}: ${outcome.message}` };
    case 'disconnected':
      return { ...base, errorCode: 'gateway_disconnected', errorMessage: `The gateway connection ended before a result: ${outcome.message}` };
    case 'http_status':
      return { ...base, errorCode: 'gateway_http_status', errorMessage: outcome.message };
    case 'ended':
      break;
  }
  if (end?.type === 'error') return { ...base, errorCode: end.code, errorMessage: end.message };
  if (end?.type === 'result' && end.status === 'failed') {
    // A key the gateway no longer knows: clear it so the engine retries once with a fresh session.
    if (end.errorCode === 'unknown_session') return { ...base, sessionParams: null, errorCode: 'unknown_session', errorMessage: end.errorMessage ?? `The gateway does not know session ${sentKey ?? ''}` };
    return { ...base, errorCode: end.errorCode ?? 'agent_failed', errorMessage: end.errorMessage ?? 'The remote agent reported a failure', ...(end.rateLimitResetAt ? { rateLimitResetAt: end.rateLimitResetAt } : {}) };
  }
  return base;
}
