import { stripVTControlCharacters } from 'node:util';

/**
 * Turns output chunks (cut anywhere) into whole lines, for parsing a CLI's structured stream.
 * Under a PTY the terminal adds `\r\n` line ends, colour and cursor escapes, and may echo
 * control characters: each line is stripped of VT escapes and carriage returns before it is
 * handed on, so a JSON line reads the same through pipes and PTYs.
 */
export class LineSplitter {
  private partial = '';

  /** Whole lines completed by this chunk, cleaned. */
  push(chunk: string): string[] {
    const text = this.partial + chunk;
    const parts = text.split('\n');
    this.partial = parts.pop() ?? '';
    return parts.map(cleanLine);
  }

  /** The unterminated rest (at end of output), or nothing. */
  end(): string[] {
    const rest = this.partial;
    this.partial = '';
    const line = cleanLine(rest);
    return line ? [line] : [];
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
