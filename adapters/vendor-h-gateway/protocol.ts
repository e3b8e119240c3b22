/**
 * The Headcount gateway protocol, version 1 (see PROTOCOL.md next to this file). Frames are JSON
 * objects, one per WebSocket text message or one per NDJSON line over HTTP. This module only
 * validates what arrives: anything that is not a known, well-formed event is a protocol error.
 */

export const PROTOCOL_VERSION = 1;

/** WebSocket close codes the gateway uses to refuse a client (4000–4999 are free for applications). */
export const CLOSE_UNAUTHORIZED = 4401;
export const CLOSE_FORBIDDEN = 4403;

export interface RunRequest {
  type: 'run';
  protocol: typeof PROTOCOL_VERSION;
  runId: string;
  agentId: string;
  /** The stored conversation key, or null to start a new one. */
  sessionKey: string | null;
  prompt: string;
  context: { taskId: string | null; taskTitle: string | null; wakeReason: string | null; headcountAgentId: string; companyId: string };
  /** What the remote agent needs to call back: api url, run token, ids (`SERVICE_*`). */
  env: Record<string, string>;
  timeoutSec: number;
}

export type GatewayEvent =
  | { type: 'accepted'; seq: number; runId: string; sessionKey: string | null }
  | { type: 'log'; seq: number; stream: 'stdout' | 'stderr'; chunk: string }
  | { type: 'usage'; seq: number; provider: string; model: string; inputTokens: number; outputTokens: number; cachedInputTokens: number; costUsd: number | null }
  | { type: 'result'; seq: number; status: 'succeeded' | 'failed'; summary: string | null; sessionKey: string | null; errorCode: string | null; errorMessage: string | null; rateLimitResetAt: string | null }
  | { type: 'error'; seq: number; code: string; message: string };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const count = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const optString = (v: unknown, max = 4096): string | null | undefined => (v === undefined || v === null ? null : typeof v === 'string' && v.length <= max ? v : undefined);
const CODE = /^[a-z][a-z0-9_]{0,63}$/;

export class ProtocolError extends Error {
  readonly code = 'gateway_protocol_error';
}

/** One frame → a validated event; throws ProtocolError naming what was wrong. */
export function parseEvent(frame: string): GatewayEvent {
  let value: unknown;
  try {
    value = JSON.parse(frame);
  } catch {
    throw new ProtocolError(`The gateway sent a frame that is not JSON: ${JSON.stringify(frame.slice(0, 120))}`);
  }
  if (!isObj(value)) throw new ProtocolError('The gateway sent a frame that is not a JSON object');
  const seq = value.seq ?? 0;
  if (!count(seq)) throw new ProtocolError('The gateway sent an event with an invalid seq');
  const bad = (what: string) => new ProtocolError(`The gateway sent a malformed "${String(value.type)}" event: ${what}`);
  switch (value.type) {
    case 'accepted': {
      const sessionKey = optString(value.sessionKey, 256);
      if (typeof value.runId !== 'string' || sessionKey === undefined) throw bad('runId/sessionKey');
      return { type: 'accepted', seq, runId: value.runId, sessionKey };
    }
    case 'log':
      if ((value.stream !== 'stdout' && value.stream !== 'stderr') || typeof value.chunk !== 'string') throw bad('stream/chunk');
      return { type: 'log', seq, stream: value.stream, chunk: value.chunk };
    case 'usage': {
      const cost = value.costUsd ?? null;
      if (typeof value.provider !== 'string' || typeof value.model !== 'string' || !count(value.inputTokens) || !count(value.outputTokens)) throw bad('provider/model/tokens');
      if (value.cachedInputTokens !== undefined && !count(value.cachedInputTokens)) throw bad('cachedInputTokens');
      if (cost !== null && (typeof cost !== 'number' || !Number.isFinite(cost) || cost < 0)) throw bad('costUsd');
      return { type: 'usage', seq, provider: value.provider, model: value.model, inputTokens: value.inputTokens, outputTokens: value.outputTokens, cachedInputTokens: (value.cachedInputTokens as number | undefined) ?? 0, costUsd: cost };
    }
    case 'result': {
      const summary = optString(value.summary, 1_000_000);
      const sessionKey = optString(value.sessionKey, 256);
      const errorCode = optString(value.errorCode, 64);
      const errorMessage = optString(value.errorMessage, 65_536);
      const resetAt = optString(value.rateLimitResetAt, 64);
      if (value.status !== 'succeeded' && value.status !== 'failed') throw bad('status');
      if (summary === undefined || sessionKey === undefined || errorCode === undefined || errorMessage === undefined || resetAt === undefined) throw bad('fields');
      if (errorCode !== null && !CODE.test(errorCode)) throw bad('errorCode');
      if (resetAt !== null && Number.isNaN(Date.parse(resetAt))) throw bad('rateLimitResetAt');
      return { type: 'result', seq, status: value.status, summary, sessionKey, errorCode, errorMessage, rateLimitResetAt: resetAt === null ? null : new Date(resetAt).toISOString() };
    }
    case 'error':
      if (typeof value.code !== 'string' || !CODE.test(value.code) || typeof value.message !== 'string') throw bad('code/message');
      return { type: 'error', seq, code: value.code, message: value.message.slice(0, 65_536) };
    default:
      throw new ProtocolError(`The gateway sent an unknown event type ${JSON.stringify(value.type)}`);
  }
}
