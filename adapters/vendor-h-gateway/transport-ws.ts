import WebSocket from 'ws';
import type { VendorHGatewayConfig } from './config.js';
import { CLOSE_FORBIDDEN, CLOSE_UNAUTHORIZED, ProtocolError, parseEvent, type RunRequest } from './protocol.js';
import type { GatewayRunState } from './run-state.js';
import type { TransportOutcome } from './outcome.js';

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

type Connection = TransportOutcome | { kind: 'dropped'; message: string; opened: boolean };

/**
 * One connection: sends the run request (or, after a drop, `attach` with the last seq seen) and
 * reads events until the run ends, the connection drops, or `stop` fires (wait timeout or cancel:
 * a `cancel` frame, then a normal close).
 */
function connect(config: VendorHGatewayConfig, token: string, request: RunRequest, state: GatewayRunState, stop: AbortSignal, first: boolean): Promise<Connection> {
  return new Promise<Connection>((resolve) => {
    let settled = false;
    let opened = false;
    let lastError = '';
    const ws = new WebSocket(config.url, { headers: { authorization: `Bearer ${token}` }, handshakeTimeout: config.connectTimeoutSec * 1000, maxPayload: 16 * 1024 * 1024 });
    const finish = (outcome: Connection, close?: { code: number; reason: string; cancel?: string }) => {
      if (settled) return;
      settled = true;
      stop.removeEventListener('abort', onStop);
      if (close && ws.readyState === WebSocket.OPEN) {
        if (close.cancel) ws.send(JSON.stringify({ type: 'cancel', runId: request.runId, reason: close.cancel }));
        ws.close(close.code, close.reason);
        // A gateway that never answers the close handshake must not keep the socket around.
        setTimeout(() => ws.terminate(), 2000).unref();
      } else if (ws.readyState !== WebSocket.CLOSED) {
        ws.terminate();
      }
      resolve(outcome);
    };
    const onStop = () => finish({ kind: 'stopped' }, { code: 1000, reason: 'cancelled', cancel: String(stop.reason ?? 'cancelled') });
    stop.addEventListener('abort', onStop, { once: true });
    ws.on('open', () => {
      opened = true;
      ws.send(JSON.stringify(first ? request : { type: 'attach', protocol: request.protocol, runId: request.runId, afterSeq: state.lastSeq }));
    });
    ws.on('message', (data, isBinary) => {
      if (settled) return;
      try {
        if (isBinary) throw new ProtocolError('The gateway sent a binary frame');
        const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
        if (state.apply(parseEvent(text))) finish({ kind: 'ended' }, { code: 1000, reason: 'done' });
      } catch (err) {
        finish({ kind: 'protocol', message: (err as Error).message }, { code: 1002, reason: 'protocol error', cancel: 'protocol_error' });
      }
    });
    ws.on('error', (err) => {
      lastError = err.message;
    });
    ws.on('close', (code, reason) => {
      const why = reason.toString('utf8');
      if (code === CLOSE_UNAUTHORIZED || code === CLOSE_FORBIDDEN) return finish({ kind: 'auth', message: why || `The gateway refused the token (close ${code})` });
      const status = /Unexpected server response: (\d{3})/.exec(lastError)?.[1];
      if (status === '401' || status === '403') return finish({ kind: 'auth', message: `The gateway refused the token (HTTP ${status})` });
      if (!opened && first) return finish({ kind: 'unreachable', message: lastError || `closed with code ${code}` });
      finish({ kind: 'dropped', opened, message: lastError || `closed with code ${code}${why ? ` (${why})` : ''}` });
    });
  });
}

/**
 * The whole run over WebSocket. A connection that drops before the result is reconnected up to
 * `reconnectAttempts` times (with a growing pause) and re-attached to the same run; the gateway
 * replays what the client missed.
 */
export async function runOverWebSocket(config: VendorHGatewayConfig, token: string, request: RunRequest, state: GatewayRunState, stop: AbortSignal): Promise<TransportOutcome> {
  if (stop.aborted) return { kind: 'stopped' };
  let attempt = 0;
  let last = await connect(config, token, request, state, stop, true);
  while (last.kind === 'dropped' && attempt < config.reconnectAttempts && !stop.aborted) {
    attempt++;
    await sleep(config.reconnectDelayMs * attempt, stop);
    if (stop.aborted) return { kind: 'stopped' };
    last = await connect(config, token, request, state, stop, false);
  }
  if (last.kind === 'dropped') return { kind: 'disconnected', message: `${last.message}${attempt ? ` (after ${attempt} reconnection${attempt > 1 ? 's' : ''})` : ''}` };
  return last;
}
