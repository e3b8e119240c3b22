/**
 * DNS-rebinding and cross-site defence for a server bound to loopback. Pure functions so the
 * policy is tested on its own; the hook in server.ts applies them before authentication.
 */

const LOOPBACK_HOSTNAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** The Host header must name the loopback interface and the port we listen on, nothing else. */
export function isAllowedHost(hostHeader: string | undefined, port: number): boolean {
  if (!hostHeader) return false;
  const host = hostHeader.trim().toLowerCase();
  return LOOPBACK_HOSTNAMES.some((name) => host === `${name}:${port}`);
}

export function allowedOrigins(port: number, extra: readonly string[] = []): Set<string> {
  return new Set([...LOOPBACK_HOSTNAMES.map((name) => `http://${name}:${port}`), ...extra]);
}

/**
 * Browsers send Origin on cross-origin requests and on every non-GET request. No Origin means a
 * non-browser client (agent CLI, curl), which the bearer token already governs. `null` (sandboxed
 * frames, file: pages) is foreign. Sec-Fetch-Site catches browsers that omit Origin on GET.
 */
export function isAllowedOrigin(
  origin: string | undefined,
  secFetchSite: string | undefined,
  allowed: ReadonlySet<string>,
): boolean {
  if (origin !== undefined) return allowed.has(origin.trim().toLowerCase());
  if (secFetchSite !== undefined) return secFetchSite === 'same-origin' || secFetchSite === 'none';
  return true;
}
