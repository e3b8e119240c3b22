import { randomBytes } from 'node:crypto';
import { hashKey } from '../auth/tokens.js';
import type { Clock } from '../clock.js';

/** A login link is meant to be opened right after `serve` prints it. */
export const LOGIN_CODE_TTL_MS = 15 * 60 * 1000;

/**
 * One-time codes that a browser tab trades for the board token (`POST /api/board/login`). The code
 * travels in a URL (terminal scrollback, browser history), the token never does: a code works once
 * and expires, so a copied link is worth nothing later. Stored as hashes, like agent keys.
 */
export class BoardLoginCodes {
  private readonly codes = new Map<string, number>();

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  issue(): string {
    this.sweep();
    const code = randomBytes(24).toString('base64url');
    this.codes.set(hashKey(code), this.clock.now().getTime() + LOGIN_CODE_TTL_MS);
    return code;
  }

  /** True once for a live code; the code is spent either way. */
  redeem(code: string): boolean {
    const key = hashKey(code);
    const expires = this.codes.get(key);
    this.codes.delete(key);
    return expires !== undefined && expires > this.clock.now().getTime();
  }

  private sweep(): void {
    const now = this.clock.now().getTime();
    for (const [key, expires] of this.codes) if (expires <= now) this.codes.delete(key);
  }
}
