/** CLI formatter of vendor_i_local for `headcount run watch`: one printable line per stream line. */
import type { TranscriptEntry } from '@service/adapter-utils';
import { parseStdoutLine } from './ui-parser.js';

const paint = (color: boolean, code: number, text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
const clip = (text: string, max = 400) => (text.length > max ? `${text.slice(0, max)}…` : text);

function formatEntry(e: TranscriptEntry, color: boolean): string | null {
  switch (e.kind) {
    case 'init':
      return paint(color, 90, `amp thread ${e.sessionId ?? '?'}`);
    case 'assistant':
      return e.text;
    case 'thinking':
      return paint(color, 90, `(thinking) ${clip(e.text)}`);
    case 'user':
      return paint(color, 36, `> ${clip(e.text)}`);
    case 'tool_call':
      return paint(color, 33, `→ ${e.name} ${clip(JSON.stringify(e.input) ?? '')}`);
    case 'tool_result':
      return paint(color, e.isError ? 31 : 90, `← ${clip(e.content)}`);
    case 'result':
      return paint(color, e.isError ? 31 : 32, `${e.isError ? '✗' : '✓'} ${e.subtype ?? 'result'}: ${clip(e.text)}`);
    case 'stderr':
      return paint(color, 31, e.text);
    default:
      return e.text;
  }
}

export function formatLine(line: string, options: { color: boolean }): string | null {
  const lines = parseStdoutLine(line, '').map((e) => formatEntry(e, options.color)).filter((l): l is string => l !== null);
  return lines.length ? lines.join('\n') : null;
}
