/**
 * The core's logger. Messages are short human sentences; callers never pass request bodies,
 * secret values or tokens.
 */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

function write(level: string, message: string, fields?: Record<string, unknown>): void {
  const extra = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
  process.stderr.write(`${new Date().toISOString()} ${level} ${message}${extra}\n`);
}

/** Logs to stderr so stdout stays free for the contract line `listening on ...`. */
export const stderrLogger: Logger = {
  info: (m, f) => write('info', m, f),
  warn: (m, f) => write('warn', m, f),
  error: (m, f) => write('error', m, f),
};

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };
