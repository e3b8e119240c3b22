import { describe, expect, it } from 'vitest';
import {
  appOrigin,
  contentSecurityPolicy,
  decideNavigation,
  decidePermission,
  decideWindowOpen,
  isAllowedExternal,
  revealablePath,
  webPreferences,
  withSecurityHeaders,
} from '../../../main/electron/policy.js';

const origin = 'http://127.0.0.1:3100';

describe('app origin', () => {
  it('is the loopback http origin of the core', () => {
    expect(appOrigin('http://127.0.0.1:3100')).toBe(origin);
    expect(appOrigin('http://127.0.0.1:49152/')).toBe('http://127.0.0.1:49152');
  });
  it('refuses anything but loopback http', () => {
    expect(() => appOrigin('http://localhost:3100')).toThrow(/127\.0\.0\.1/);
    expect(() => appOrigin('https://127.0.0.1:3100')).toThrow();
    expect(() => appOrigin('http://0.0.0.0:3100')).toThrow();
  });
});

describe('navigation policy', () => {
  it('allows the app origin only', () => {
    expect(decideNavigation(origin, `${origin}/`)).toEqual({ allow: true });
    expect(decideNavigation(origin, `${origin}/#/runs/r1`)).toEqual({ allow: true });
    expect(decideNavigation(origin, 'http://127.0.0.1:3101/').allow).toBe(false);
    expect(decideNavigation(origin, 'http://localhost:3100/').allow).toBe(false);
  });
  it('sends allow-listed https pages to the system browser and drops the rest', () => {
    expect(decideNavigation(origin, 'https://docs.anthropic.com/en/docs/claude-code')).toEqual({ allow: false, openExternal: 'https://docs.anthropic.com/en/docs/claude-code' });
    expect(decideNavigation(origin, 'https://evil.example/')).toEqual({ allow: false, openExternal: null });
    expect(decideNavigation(origin, 'http://github.com/')).toEqual({ allow: false, openExternal: null });
  });
  it.each(['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,<script>1</script>', 'about:blank', 'http://github.com/x', 'not a url'])('denies %s', (url) => {
    expect(decideNavigation(origin, url)).toEqual({ allow: false, openExternal: null });
    expect(decideWindowOpen(url)).toEqual({ action: 'deny', openExternal: null });
  });
  it('window.open never makes an Electron window; allow-listed https opens outside', () => {
    expect(decideWindowOpen('https://github.com/headcount/issues')).toEqual({ action: 'deny', openExternal: 'https://github.com/headcount/issues' });
    expect(decideWindowOpen('https://docs.github.com/en')).toEqual({ action: 'deny', openExternal: 'https://docs.github.com/en' });
    expect(decideWindowOpen(`${origin}/#/costs`)).toEqual({ action: 'deny', openExternal: null });
  });
  it('external allowlist: https, exact host or subdomain, no credentials or port tricks', () => {
    expect(isAllowedExternal('https://github.com/a')).toBe(true);
    expect(isAllowedExternal('https://notgithub.com/a')).toBe(false);
    expect(isAllowedExternal('https://github.com.evil.example/a')).toBe(false);
    expect(isAllowedExternal('https://user:pw@github.com/a')).toBe(false);
    expect(isAllowedExternal('https://github.com:8443/a')).toBe(false);
    expect(isAllowedExternal('https://example.org/', ['example.org'])).toBe(true);
  });
});

describe('permission requests', () => {
  it('denies everything but clipboard writes from the app origin', () => {
    expect(decidePermission(origin, 'clipboard-sanitized-write', `${origin}/#/agents`)).toBe(true);
    expect(decidePermission(origin, 'clipboard-sanitized-write', 'https://github.com/')).toBe(false);
    for (const p of ['media', 'geolocation', 'notifications', 'midi', 'openExternal', 'fullscreen', 'clipboard-read', 'hid', 'serial']) {
      expect(decidePermission(origin, p, `${origin}/`)).toBe(false);
    }
  });
});

describe('content security policy', () => {
  it('is strict: self only, no inline or eval script, no framing, no plugins', () => {
    const csp = contentSecurityPolicy();
    const directives = Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
    expect(directives['default-src']).toBe("'none'");
    expect(directives['script-src']).toBe("'self'");
    expect(directives['connect-src']).toBe("'self'");
    expect(directives['object-src']).toBe("'none'");
    expect(directives['frame-ancestors']).toBe("'none'");
    expect(directives['base-uri']).toBe("'none'");
    expect(csp).not.toMatch(/unsafe-eval|https?:|\*/);
    expect(directives['script-src']).not.toContain('unsafe-inline');
  });
  it('replaces any CSP the server sent, whatever its case, and keeps other headers', () => {
    const out = withSecurityHeaders({ 'content-security-policy': ["default-src *"], 'Content-Type': ['text/html'] });
    expect(out['Content-Security-Policy']).toEqual([contentSecurityPolicy()]);
    expect(out['content-security-policy']).toBeUndefined();
    expect(out['Content-Type']).toEqual(['text/html']);
    expect(withSecurityHeaders(undefined)).toEqual({ 'Content-Security-Policy': [contentSecurityPolicy()] });
  });
});

describe('window web preferences', () => {
  it('isolates the page: context isolation, sandbox, no Node, web security on', () => {
    const prefs = webPreferences('/app/dist/preload/index.cjs');
    expect(prefs).toMatchObject({
      preload: '/app/dist/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });
});

describe('reveal in file manager', () => {
  const exists = (p: string) => p === '/home/me/.service/runs';
  it('accepts an absolute existing path only', () => {
    expect(revealablePath('/home/me/.service/runs', exists)).toBe('/home/me/.service/runs');
    expect(revealablePath('/home/me/.service/x/../runs', exists)).toBe('/home/me/.service/runs');
    expect(revealablePath('runs', exists)).toBeNull();
    expect(revealablePath('/nope', exists)).toBeNull();
    expect(revealablePath('/home/me/.service/runs\0', exists)).toBeNull();
    expect(revealablePath(42, exists)).toBeNull();
    expect(revealablePath('/' + 'a'.repeat(5000), () => true)).toBeNull();
  });
});
