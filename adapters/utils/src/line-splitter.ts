import { stripVTControlCharacters } from 'node:util';

/**
 * Longest line handed to a parser, in UTF-16 code units. A structured-stream line (a tool result
 * with a whole file in it) stays far below; a CLI printing without newlines must not make the
 * server hold its whole output.
 */
export const MAX_LINE_CHARS = 8 * 1024 * 1024;

/**
 * Turns output chunks (cut anywhere) into whole lines, for parsing a CLI's structured stream.
 * Under a PTY the terminal adds `\r\n` line ends, colour and cursor escapes, and may echo
 * control characters: each line is stripped of VT escapes and carriage returns before it is
 * handed on, so a JSON line reads the same through pipes and PTYs.
 *
 * The unfinished line is kept as a list of pieces (joined once, when its newline comes), so a long
 * line costs linear time; a line longer than `maxLineChars` is dropped whole (it could not be
 * parsed from a prefix anyway) and memory stays bounded by that length.
 */
export class LineSplitter {
  private pieces: string[] = [];
  private length = 0;
  private overlong = false;

  constructor(private readonly maxLineChars = MAX_LINE_CHARS) {}

  /** Whole lines completed by this chunk, cleaned. */
  push(chunk: string): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', start)) {
      this.add(chunk.slice(start, nl));
      const line = this.take();
      if (line !== null) lines.push(cleanLine(line));
      start = nl + 1;
    }
    this.add(chunk.slice(start));
    return lines;
  }

  /** The unterminated rest (at end of output), or nothing. */
  end(): string[] {
    const rest = this.take();
    const line = rest === null ? '' : cleanLine(rest);
    return line ? [line] : [];
  }

  private add(piece: string): void {
    if (!piece || this.overlong) return;
    this.length += piece.length;
    if (this.length > this.maxLineChars) {
      this.overlong = true;
      this.pieces = [];
      return;
    }
    this.pieces.push(piece);
  }

  /** The line so far, or null when it was too long; starts the next line. */
  private take(): string | null {
    const line = this.overlong ? null : this.pieces.join('');
    this.pieces = [];
    this.length = 0;
    this.overlong = false;
    return line;
  }
}

/**
 * One line without terminal escapes, carriage returns, backspaces or the PTY's EOF echo (^D), by
 * pattern: for recorded fixtures and pipe output. Terminal output (PTY runs, `run watch`, error
 * texts) goes through the emulator in terminal-text.ts, which a pattern cannot match (it left `4mu`
 * of `ESC[>4m ESC[<u`).
 */
export function cleanLine(raw: string): string {
  // A carriage return mid-line (a spinner redrawing) keeps only what was drawn last.
  const noCr = raw.replace(/\r+$/, '');
  const lastCr = noCr.lastIndexOf('\r');
  const visible = lastCr >= 0 ? noCr.slice(lastCr + 1) : noCr;
  // eslint-disable-next-line no-control-regex
  return stripVTControlCharacters(visible).replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '').replace(/^\^D/, '');
}

/** Splits a whole text into cleaned lines (fixtures, tests, a finished transcript). */
export function splitLines(text: string): string[] {
  const s = new LineSplitter();
  return [...s.push(text), ...s.end()];
}
