import xterm from '@xterm/headless';

/**
 * Terminal output as the plain text a person would see, rendered by a real terminal emulator
 * (xterm.js, headless) rather than stripped by pattern: CSI with private parameters (`ESC[>4m`,
 * `ESC[<u`, which Claude Code sends on exit), OSC titles, cursor moves, carriage-return redraws and
 * erase sequences all come out as the screen shows them. A pattern strip left `4mu` of the first
 * two in a timed-out run's error message.
 *
 * Cost: most lines (JSON streams, plain logs) carry no control character and never reach the
 * emulator. The others go, one at a time, through ONE terminal per process, reset between lines:
 * a Terminal is a few MB of buffer and its parser is fast, so a per-run terminal fed everything
 * would cost memory per run for lines that need no rendering.
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

/** Whether a line needs rendering: any C0/C1 control character other than tab. */
export const hasTerminalControls = (line: string): boolean => CONTROL.test(line);

const COLS = 1000;
let terminal: xterm.Terminal | null = null;
let queue: Promise<unknown> = Promise.resolve();

function term(): xterm.Terminal {
  // Wide enough that ordinary lines never wrap; longer ones wrap and are joined back below.
  terminal ??= new xterm.Terminal({ cols: COLS, rows: 24, scrollback: 2000, allowProposedApi: true, convertEol: false });
  return terminal;
}

/** The screen after `raw` was written to a fresh terminal: its rows (wrapped rows joined), trailing blank rows dropped. */
function renderNow(raw: string): Promise<string[]> {
  const t = term();
  t.reset();
  return new Promise((resolve) => {
    t.write(raw, () => {
      const buffer = t.buffer.active;
      const rows: string[] = [];
      for (let i = 0; i < buffer.length; i++) {
        const line = buffer.getLine(i);
        if (!line) continue;
        const text = line.translateToString(true);
        if (line.isWrapped && rows.length) rows[rows.length - 1] += text;
        else rows.push(text);
      }
      while (rows.length && !rows[rows.length - 1]!.trim()) rows.pop();
      resolve(rows);
    });
  });
}

/**
 * The visible text of terminal output (one line or many), as lines. Lines without control
 * characters are returned as they are, without touching the emulator. Calls are serialized.
 */
export function renderTerminalLines(raw: string): Promise<string[]> {
  const lines = raw.split('\n');
  if (!lines.some(hasTerminalControls)) return Promise.resolve(lines[lines.length - 1] === '' ? lines.slice(0, -1) : lines);
  const run = queue.then(async () => {
    const out: string[] = [];
    for (const line of lines) {
      if (!hasTerminalControls(line)) out.push(line);
      // A line that renders to nothing (only mode switches) is dropped, like the screen shows it.
      else out.push(...(await renderNow(line)));
    }
    if (out[out.length - 1] === '') out.pop();
    return out;
  });
  queue = run.catch(() => undefined);
  return run;
}

/** Drops the carriage returns a PTY puts before each line feed (`\r\n`): a line end, not a redraw. */
function withoutLineEnd(line: string): string {
  let end = line.length;
  while (end > 0 && line.charCodeAt(end - 1) === 13) end--;
  return line.slice(0, end);
}

/**
 * Turns output chunks (cut anywhere) into whole lines of visible text: the streaming form of
 * `renderTerminalLines`. `push` must be called in output order; its promises resolve in that order.
 */
export class TerminalLineSplitter {
  private partial = '';

  /** The lines this chunk completes, rendered. */
  push(chunk: string): Promise<string[]> {
    const parts = (this.partial + chunk).split('\n');
    this.partial = parts.pop() ?? '';
    return parts.length ? renderTerminalLines(parts.map(withoutLineEnd).join('\n') + '\n') : Promise.resolve([]);
  }

  /** The unterminated rest (at the end of the output), rendered, or nothing. */
  end(): Promise<string[]> {
    const rest = withoutLineEnd(this.partial);
    this.partial = '';
    return rest ? renderTerminalLines(rest).then((lines) => lines.filter((l) => l !== '')) : Promise.resolve([]);
  }
}

/** One line's visible text (rows a cursor move put apart are joined by a space). */
export async function renderTerminalLine(raw: string): Promise<string> {
  return (await renderTerminalLines(raw.replace(/\n/g, ' '))).join(' ');
}
