import { describe, expect, it } from 'vitest';
import { allowedOrigins, isAllowedHost, isAllowedOrigin } from '../../../main/core/http/host-guard.js';

describe('host guard', () => {
  it('accepts only loopback names with our port', () => {
    for (const h of ['127.0.0.1:3100', 'localhost:3100', '[::1]:3100', 'LOCALHOST:3100']) expect(isAllowedHost(h, 3100)).toBe(true);
    for (const h of [undefined, '', '127.0.0.1', '127.0.0.1:3101', 'evil.com:3100', 'localhost.evil.com:3100', '127.0.0.2:3100', '0.0.0.0:3100', '127.0.0.1:3100.evil.com'])
      expect(isAllowedHost(h, 3100)).toBe(false);
  });
});

describe('origin guard', () => {
  const allowed = allowedOrigins(3100, ['http://localhost:5173']);
  it('lets non-browser clients through (no Origin, no Sec-Fetch-Site)', () => {
    expect(isAllowedOrigin(undefined, undefined, allowed)).toBe(true);
  });
  it('accepts our own origins and configured extras', () => {
    expect(isAllowedOrigin('http://127.0.0.1:3100', 'same-origin', allowed)).toBe(true);
    expect(isAllowedOrigin('http://localhost:5173', 'cross-site', allowed)).toBe(true);
  });
  it('refuses foreign, null and other-port origins', () => {
    for (const o of ['https://evil.com', 'null', 'http://127.0.0.1:3101', 'http://127.0.0.1:3100.evil.com', 'https://127.0.0.1:3100'])
      expect(isAllowedOrigin(o, undefined, allowed)).toBe(false);
  });
  it('refuses cross-site browser requests that omit Origin', () => {
    expect(isAllowedOrigin(undefined, 'cross-site', allowed)).toBe(false);
    expect(isAllowedOrigin(undefined, 'same-site', allowed)).toBe(false);
    expect(isAllowedOrigin(undefined, 'none', allowed)).toBe(true);
  });
});
