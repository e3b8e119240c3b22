import net from 'node:net';

/**
 * The per-agent host allowlist (`adapterConfig.networkAllowlist`): entries are `host`, `*.example.com`
 * (any subdomain, not the bare domain), an IP literal (`10.0.0.5`, `[::1]`), each with an optional
 * `:port`. Without a port an entry allows the web ports 80 and 443 only.
 */

export interface AllowEntry {
  /** Lowercase, without a trailing dot or IPv6 brackets; for a wildcard, the suffix after `*.`. */
  host: string;
  wildcard: boolean;
  /** null: 80 and 443. */
  port: number | null;
}

const LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;
const WEB_PORTS = [80, 443];

/** The host part as compared: lowercase, no trailing dot, no IPv6 brackets. */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  while (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

function validPort(text: string): number | null {
  if (!/^\d{1,5}$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= 65_535 ? n : null;
}

/** Parses one entry; null when it is not a valid host, wildcard or IP literal with an optional port. */
export function parseAllowEntry(entry: string): AllowEntry | null {
  const raw = entry.trim();
  let hostPart = raw;
  let port: number | null = null;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(raw);
  if (bracketed) {
    if (net.isIPv6(bracketed[1]!) === false) return null;
    hostPart = bracketed[1]!;
    if (bracketed[2] !== undefined && (port = validPort(bracketed[2])) === null) return null;
    return { host: normalizeHost(hostPart), wildcard: false, port };
  }
  if (net.isIPv6(raw)) return { host: normalizeHost(raw), wildcard: false, port: null };
  const colon = raw.lastIndexOf(':');
  if (colon >= 0) {
    if ((port = validPort(raw.slice(colon + 1))) === null) return null;
    hostPart = raw.slice(0, colon);
  }
  const wildcard = hostPart.startsWith('*.');
  const host = normalizeHost(wildcard ? hostPart.slice(2) : hostPart);
  if (!host || host.length > 253) return null;
  if (net.isIPv4(host)) return wildcard ? null : { host, wildcard, port };
  if (!host.split('.').every((l) => LABEL.test(l))) return null;
  return { host, wildcard, port };
}

/** Whether `host:port` (as an agent asked the proxy for it) is allowed by the entries. */
export function hostAllowed(entries: readonly AllowEntry[], host: string, port: number): boolean {
  const h = normalizeHost(host);
  return entries.some((e) => {
    const hostMatches = e.wildcard ? h.endsWith(`.${e.host}`) && !net.isIP(h) : h === e.host;
    return hostMatches && (e.port === null ? WEB_PORTS.includes(port) : e.port === port);
  });
}

/** The parsed entries of a configuration value; throws on an invalid entry (config validation refuses them first). */
export function parseAllowlist(entries: readonly string[]): AllowEntry[] {
  return entries.map((e) => {
    const parsed = parseAllowEntry(e);
    if (!parsed) throw new Error(`invalid networkAllowlist entry "${e}"`);
    return parsed;
  });
}

/** The agent's proxy variables: both cases (tools read one or the other), loopback excluded. */
export function proxyEnv(policy: { proxyPort: number }): Record<string, string> {
  const proxy = `http://127.0.0.1:${policy.proxyPort}`;
  return { HTTPS_PROXY: proxy, HTTP_PROXY: proxy, https_proxy: proxy, http_proxy: proxy, NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost' };
}
