import WebSocket from 'ws';
import { credentialEnv, environmentResult, type EnvironmentCheck, type EnvironmentTestContext, type EnvironmentTestResult } from '@service/adapter-utils';
import { VendorHGatewayConfig } from './config.js';
import { CLOSE_FORBIDDEN, CLOSE_UNAUTHORIZED, PROTOCOL_VERSION } from './protocol.js';
import { AUTH_HINT } from './execute.js';

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i;

interface Probe {
  status: 'ok' | 'auth' | 'unreachable' | 'protocol';
  message: string;
  agents?: string[];
}

/** WebSocket probe: connect with the token, `ping` → `pong` (which may list the gateway's agents). */
function probeWebSocket(url: string, token: string, timeoutMs: number): Promise<Probe> {
  return new Promise((resolve) => {
    let done = false;
    let lastError = '';
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` }, handshakeTimeout: timeoutMs });
    const finish = (probe: Probe) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (ws.readyState === WebSocket.OPEN) ws.close(1000, 'probe done');
      else if (ws.readyState !== WebSocket.CLOSED) ws.terminate();
      resolve(probe);
    };
    const timer = setTimeout(() => finish({ status: 'unreachable', message: `no answer within ${timeoutMs} ms` }), timeoutMs + 500);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'ping', protocol: PROTOCOL_VERSION })));
    ws.on('message', (data) => {
      try {
        const frame = JSON.parse(String(data)) as { type?: unknown; agents?: unknown; protocol?: unknown };
        if (frame.type !== 'pong') return finish({ status: 'protocol', message: `answered the ping with ${JSON.stringify(frame.type)}` });
        const agents = Array.isArray(frame.agents) ? frame.agents.filter((a): a is string => typeof a === 'string') : undefined;
        finish({ status: 'ok', message: `protocol ${String(frame.protocol ?? PROTOCOL_VERSION)}`, ...(agents ? { agents } : {}) });
      } catch {
        finish({ status: 'protocol', message: 'answered the ping with a frame that is not JSON' });
      }
    });
    ws.on('error', (err) => (lastError = err.message));
    ws.on('close', (code, reason) => {
      const status = /Unexpected server response: (\d{3})/.exec(lastError)?.[1];
      if (code === CLOSE_UNAUTHORIZED || code === CLOSE_FORBIDDEN || status === '401' || status === '403') return finish({ status: 'auth', message: reason.toString() || `refused the token (${status ? `HTTP ${status}` : `close ${code}`})` });
      finish({ status: 'unreachable', message: lastError || `closed with code ${code}` });
    });
  });
}

/** HTTP probe: `GET {url}/health` with the token. */
async function probeHttp(url: string, token: string, timeoutMs: number): Promise<Probe> {
  try {
    const res = await fetch(`${url.replace(/\/+$/, '')}/health`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    const body = (await res.json().catch(() => null)) as { agents?: unknown } | null;
    if (res.status === 401 || res.status === 403) return { status: 'auth', message: `refused the token (HTTP ${res.status})` };
    if (!res.ok) return { status: 'protocol', message: `GET /health answered ${res.status}` };
    const agents = Array.isArray(body?.agents) ? body.agents.filter((a): a is string => typeof a === 'string') : undefined;
    return { status: 'ok', message: `answered ${res.status}`, ...(agents ? { agents } : {}) };
  } catch (err) {
    return { status: 'unreachable', message: (err as Error).message };
  }
}

export async function testGatewayEnvironment(ctx: EnvironmentTestContext): Promise<EnvironmentTestResult> {
  const parsed = VendorHGatewayConfig.safeParse(ctx.config);
  if (!parsed.success) {
    const url = typeof ctx.config.url === 'string' ? ctx.config.url : '';
    return environmentResult('vendor_h_gateway', [{ level: 'error', code: 'invalid_config', message: parsed.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`).join('; '), hint: `The url must look like ws://host:port/path, wss://…, http://… or https://…${url ? ` (got ${url})` : ''}` }]);
  }
  const config = parsed.data;
  const url = new URL(config.url);
  const checks: EnvironmentCheck[] = [{ level: 'info', code: 'url_valid', message: `${url.protocol.startsWith('ws') ? 'WebSocket' : 'HTTP fallback'} gateway at ${url.host}` }];
  if ((url.protocol === 'ws:' || url.protocol === 'http:') && !LOOPBACK.test(url.hostname)) {
    checks.push({ level: 'warn', code: 'insecure_transport', message: `${url.protocol}// sends the gateway token and the run token unencrypted`, hint: 'Use wss:// or https:// for a gateway on another machine.' });
  }
  // The connection probe is the one check that needs the credential: only it resolves secrets.
  const token = ctx.env[config.tokenEnv] ? (await credentialEnv(ctx, ctx.env))[config.tokenEnv] : undefined;
  if (!token) {
    checks.push({ level: 'error', code: 'token_missing', message: `${config.tokenEnv} is not set in the agent env`, hint: AUTH_HINT });
    return environmentResult('vendor_h_gateway', checks);
  }
  const timeoutMs = config.connectTimeoutSec * 1000;
  const probe = url.protocol.startsWith('ws') ? await probeWebSocket(config.url, token, timeoutMs) : await probeHttp(config.url, token, timeoutMs);
  if (probe.status === 'unreachable') checks.push({ level: 'error', code: 'gateway_unreachable', message: `${config.url}: ${probe.message}`, hint: 'Start the gateway, or correct the URL.' });
  else if (probe.status === 'auth') checks.push({ level: 'error', code: 'gateway_auth_failed', message: `The gateway ${probe.message}`, hint: AUTH_HINT });
  else if (probe.status === 'protocol') checks.push({ level: 'error', code: 'gateway_protocol_error', message: `The gateway ${probe.message}`, hint: 'The URL answers but does not speak the Headcount gateway protocol.' });
  else {
    checks.push({ level: 'info', code: 'gateway_reachable', message: `The gateway accepted the token (${probe.message})` });
    if (probe.agents && !probe.agents.includes(config.agentId)) {
      checks.push({ level: 'warn', code: 'agent_unknown', message: `The gateway does not list agent "${config.agentId}" (it lists ${probe.agents.join(', ') || 'none'})` });
    }
  }
  return environmentResult('vendor_h_gateway', checks);
}
