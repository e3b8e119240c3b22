import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateBoardToken } from './tokens.js';

export const BOARD_TOKEN_FILE = 'board-token';

/**
 * The board token: `SERVICE_BOARD_TOKEN` when given, else the one kept in `<home>/board-token`,
 * else a new one written there with mode 0600. A file readable by others is tightened, since
 * this token is the instance administrator.
 */
export function resolveBoardToken(home: string, fromEnv: string | undefined): string {
  if (fromEnv !== undefined && fromEnv.trim() !== '') return fromEnv.trim();
  const file = path.join(home, BOARD_TOKEN_FILE);
  if (existsSync(file)) {
    if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    const token = readFileSync(file, 'utf8').trim();
    if (token) return token;
  }
  const token = generateBoardToken();
  // The mode option applies only when the file is created; chmod covers a pre-existing empty file.
  writeFileSync(file, token + '\n', { mode: 0o600 });
  if (process.platform !== 'win32') chmodSync(file, 0o600);
  return token;
}
