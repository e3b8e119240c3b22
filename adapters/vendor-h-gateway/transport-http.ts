import type { VendorHGatewayConfig } from './config.js';
import { ProtocolError, parseEvent, type RunRequest } from './protocol.js';
import type { GatewayRunState } from './run-state.js';
import type { TransportOutcome } from './outcome.js';

const base = (url: string) => url.replace(/\/+$/, '');

/** Best effort: the gateway hears about a timeout or cancel even though the stream is dropped. */
async function sendCancel(config: VendorHGatewayConfig, token: string, runId: string, reason: string): Promise<void> {
  try {
    const res = await fetch(`${base(config.url)}/runs/${encodeURIComponent(runId)}/cancel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'cancel', runId, reason }),
      signal: AbortSignal.timeout(config.connectTimeoutSec * 1000),
    });
    await res.arrayBuffer();
  } catch {
    // The gateway may be gone; the run is over either way.
  }
}

/**
 * The HTTP fallback: `POST {url}/runs` with the run request; the answer streams the same events
 * as NDJSON. No reconnection: a dropped stream fails the run.
 */
export async function runOverHttp(config: VendorHGatewayConfig, token: string, request: RunRequest, state: GatewayRunState, stop: AbortSignal): Promise<TransportOutcome> {
  let res: Response;
  try {
    res = await fetch(`${base(config.url)}/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/x-ndjson' },
      body: JSON.stringify(request),
      signal: AbortSignal.any([stop, AbortSignal.timeout(config.connectTimeoutSec * 1000)]),
      redirect: 'manual',
    });
  } catch (err) {
    if (stop.aborted) return { kind: 'stopped' };
    return { kind: 'unreachable', message: (err as Error).message };
  }
  if (res.status === 401 || res.status === 403) {
    await res.body?.cancel();
    return { kind: 'auth', message: `The gateway refused the token (HTTP ${res.status})` };
  }
  if (!res.ok || !res.body) {
    const text = (await res.text().catch(() => '')).slice(0, 500);
    return { kind: 'http_status', status: res.status, message: `The gateway answered ${res.status}${text ? `: ${text}` : ''}` };
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  const onStop = () => void reader.cancel().catch(() => undefined);
  stop.addEventListener('abort', onStop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (stop.aborted) break;
      buffered += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = buffered.split('\n');
      buffered = done ? '' : lines.pop()!;
      for (const line of lines) {
        if (!line.trim()) continue;
        if (state.apply(parseEvent(line))) {
          await reader.cancel().catch(() => undefined);
          return { kind: 'ended' };
        }
      }
      if (done) return { kind: 'disconnected', message: 'The gateway ended the stream without a result' };
    }
  } catch (err) {
    if (err instanceof ProtocolError) {
      await reader.cancel().catch(() => undefined);
      await sendCancel(config, token, request.runId, 'protocol_error');
      return { kind: 'protocol', message: err.message };
    }
    if (!stop.aborted) return { kind: 'disconnected', message: (err as Error).message };
  } finally {
    stop.removeEventListener('abort', onStop);
  }
  await sendCancel(config, token, request.runId, String(stop.reason ?? 'cancelled'));
  return { kind: 'stopped' };
}
