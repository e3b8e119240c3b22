import { z } from 'zod';
import { ChannelError } from './types.js';

/** Outbox config of the platform channels: where the platform's API lives (a sandbox, a proxy, a test server). */
export const PlatformConfig = z.strictObject({
  baseUrl: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .describe('Base URL of the platform API, e.g. https://api.example-network.com'),
});

const TIMEOUT_MS = 20_000;

/**
 * POSTs JSON with the outbox token as bearer and the activity id as Idempotency-Key, so a platform
 * that honours it never delivers one activity twice. Any non-2xx answer throws.
 */
export async function postPlatform(
  channel: string,
  baseUrl: string,
  path: string,
  token: string | null,
  idempotencyKey: string,
  body: unknown,
): Promise<{ providerMessageId: string | null }> {
  if (!token) throw new ChannelError('missing_secret', `${channel} needs the outbox secret (an API token)`);
  const url = new URL(path.replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: 'error',
    });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    throw new ChannelError('network_error', `${channel}: request to ${url.origin} failed (${e.cause?.code ?? e.name})`);
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) {
    // The platform's own words help the board, cut short; they never contain our token.
    const excerpt = text.replaceAll(token, '[redacted]').slice(0, 300);
    throw new ChannelError(`http_${res.status}`, `${channel} answered HTTP ${res.status}${excerpt ? `: ${excerpt}` : ''}`);
  }
  let id: unknown = null;
  try {
    const parsed = JSON.parse(text) as { id?: unknown; messages?: { id?: unknown }[] };
    id = parsed.id ?? parsed.messages?.[0]?.id ?? null;
  } catch {
    id = null;
  }
  return { providerMessageId: typeof id === 'string' || typeof id === 'number' ? String(id) : null };
}
