import path from 'node:path';
import type { WebPreferencesOptions } from './electron-like.js';

/**
 * The window's security policy as pure functions (DESIGN.md: contextIsolation, sandbox, no Node in
 * the page, strict CSP, no navigation away). The renderer is served by the core itself, so the
 * only trusted origin is the core's loopback URL.
 */

/** `http://127.0.0.1:<port>` from the core's URL; throws on anything that is not loopback http. */
export function appOrigin(coreUrl: string): string {
  const url = new URL(coreUrl);
  if (url.protocol !== 'http:' || url.hostname !== '127.0.0.1') throw new Error(`The core must listen on http://127.0.0.1, not ${coreUrl}`);
  return url.origin;
}

function originOf(raw: string): string | null {
  try {
    const url = new URL(raw);
    // `null` origins (file:, data:, about:) never equal a real origin.
    return url.origin === 'null' ? null : url.origin;
  } catch {
    return null;
  }
}

export const isAppUrl = (origin: string, raw: string): boolean => originOf(raw) === origin;

/**
 * Hosts whose https pages may open in the system browser (documentation of the agent CLIs and
 * of Headcount). Subdomains count. Everything else a page tries to open is dropped.
 */
export const EXTERNAL_HOSTS: readonly string[] = [
  'github.com',
  'docs.anthropic.com',
  'docs.claude.com',
  'platform.openai.com',
  'developers.openai.com',
  'ai.google.dev',
  'opencode.ai',
  'qwenlm.github.io',
  'nodejs.org',
  'electronjs.org',
];

/** May this URL open in the system browser? https only, no credentials, allow-listed host. */
export function isAllowedExternal(raw: string, hosts: readonly string[] = EXTERNAL_HOSTS): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return false;
  const host = url.hostname.toLowerCase();
  return hosts.some((h) => host === h || host.endsWith(`.${h}`));
}

export type NavigationDecision = { allow: true } | { allow: false; openExternal: string | null };

/** `will-navigate` / `will-redirect`: stay on the app origin; an allow-listed https link opens outside. */
export function decideNavigation(origin: string, target: string): NavigationDecision {
  if (isAppUrl(origin, target)) return { allow: true };
  return { allow: false, openExternal: isAllowedExternal(target) ? target : null };
}

/** `window.open` and `target=_blank`: never a new Electron window; allow-listed https goes to the browser. */
export function decideWindowOpen(target: string): { action: 'deny'; openExternal: string | null } {
  return { action: 'deny', openExternal: isAllowedExternal(target) ? target : null };
}

/**
 * Permission requests from pages. Only the app origin may write to the clipboard (copying an agent
 * key shown once); camera, microphone, geolocation, notifications (the shell notifies natively),
 * MIDI, HID, serial, fullscreen and the rest are refused.
 */
export const ALLOWED_PERMISSIONS: readonly string[] = ['clipboard-sanitized-write'];

export function decidePermission(origin: string, permission: string, requestingUrl: string): boolean {
  return ALLOWED_PERMISSIONS.includes(permission) && isAppUrl(origin, requestingUrl);
}

/**
 * The Content-Security-Policy header added to every response of the app origin. No inline or
 * remote script, no eval, data only from the core itself. Inline styles are allowed because
 * React style props, xterm.js and the chart library write them; scripts stay locked.
 */
export function contentSecurityPolicy(): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "media-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "frame-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Response headers with our CSP replacing any the server sent (header names are case-insensitive). */
export function withSecurityHeaders(headers: Record<string, string | string[]> | undefined): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() !== 'content-security-policy') out[name] = value;
  }
  out['Content-Security-Policy'] = [contentSecurityPolicy()];
  return out;
}

export function webPreferences(preload: string): WebPreferencesOptions {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    // A file dropped outside an upload zone must not replace the app with that file.
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: true,
  };
}

/**
 * The OS action "show in the file manager": an absolute, existing path, revealed (never opened, so
 * nothing is executed). `exists` is injected for tests.
 */
export function revealablePath(input: unknown, exists: (p: string) => boolean): string | null {
  if (typeof input !== 'string' || input.length === 0 || input.length > 4096 || input.includes('\0')) return null;
  if (!path.isAbsolute(input)) return null;
  const resolved = path.resolve(input);
  return exists(resolved) ? resolved : null;
}
