import xterm from '@xterm/headless';

/**
 * Terminal output as the plain text a person would see, rendered by a real terminal emulator
 * (xterm.js, headless) rather than stripped by pattern: CSI with private parameters (`ESC[>4m`,
 * `ESC[<u`, which Claude Code sends on exit), OSC titles, cursor moves, carriage-return redraws and
 * erase sequences all come out as the screen shows them. A pattern strip left `4mu` of the first
 * two in a timed-out run's error message.
 *
 * Cost: most lines (JSON streams, plain logs) carry no control character and never reach the
 * emulator. The others go through ONE terminal per process (one row, 1000 columns, lines longer
 * than that wrap into scrollback and are joined back), each line on a cleared screen, a whole chunk
 * of lines per write (see renderBatch): about 0.09 ms per escaped line and 2 ms per write, against
 * a terminal per run fed everything, which would hold a screen buffer per run and still need the
 * output cut back into the lines the adapters parse.
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

/** Whether a line needs rendering: any C0/C1 control character other than tab. */
export const hasTerminalControls = (line: string): boolean => CONTROL.test(line);

const COLS = 1000;
/** A private OSC the renderer writes after each line: its handler reads the screen at that point. */
const MARK = 7301;
/** After a line: soft reset (modes, margins, attributes), erase screen and scrollback, cursor home. */
const CLEAR = '\x1b[!p\x1b[0m\x1b[2J\x1b[3J\x1b[H';

interface Renderer {
  term: xterm.Terminal;
  /** Screens read at each mark of the batch being written. */
  screens: string[][];
  nonce: string;
}
let renderer: Renderer | null = null;
let queue: Promise<unknown> = Promise.resolve();

/** The screen's rows (wrapped rows joined), trailing blank rows dropped. */
function readScreen(t: xterm.Terminal): string[] {
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
  return rows;
}

function getRenderer(): Renderer {
  if (renderer) return renderer;
  // Wide enough that ordinary lines never wrap; longer ones wrap and are joined back.
  const term = new xterm.Terminal({ cols: COLS, rows: 1, scrollback: 2000, allowProposedApi: true });
  const r: Renderer = { term, screens: [], nonce: '' };
  // Runs while the parser is at the mark, so the buffer holds exactly the line just written.
  term.parser.registerOscHandler(MARK, (data) => {
    if (data === r.nonce) r.screens.push(readScreen(term));
    return true;
  });
  renderer = r;
  return r;
}

/**
 * Renders each line on a cleared screen, all in ONE write: a write's callback comes on a timer, so
 * a write per line cost ~2 ms each; the marks make a batch cost what parsing it costs.
 */
function renderBatch(lines: string[]): Promise<string[][]> {
  const r = getRenderer();
  r.screens = [];
  // A fresh nonce per batch: output that happens to contain the mark cannot forge a screen read.
  r.nonce = Math.random().toString(36).slice(2);
  const mark = `\x1b]${MARK};${r.nonce}\x07${CLEAR}`;
  return new Promise((resolve) => {
    r.term.write(CLEAR + lines.map((l) => l + mark).join(''), () => resolve(r.screens));
  });
}

/**
 * The visible text of terminal output (one line or many), as lines. Lines without control
 * characters are returned as they are, without touching the emulator. Calls are serialized.
 */
export function renderTerminalLines(raw: string): Promise<string[]> {
  const lines = raw.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  if (!lines.some(hasTerminalControls)) return Promise.resolve(lines);
  const run = queue.then(async () => {
    const screens = await renderBatch(lines.filter(hasTerminalControls));
    let next = 0;
    // A line that renders to nothing (only mode switches) is dropped, as the screen shows nothing.
    return lines.flatMap((line) => (hasTerminalControls(line) ? (screens[next++] ?? []) : [line]));
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
