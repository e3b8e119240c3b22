import os from 'node:os';
import path from 'node:path';

/** SERVICE_HOME, default ~/.service (DESIGN.md contract table). */
export const resolveHome = (flag?: string): string =>
  path.resolve(flag ?? process.env.SERVICE_HOME ?? path.join(os.homedir(), '.service'));
