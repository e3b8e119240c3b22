import type { CliFormatter, TranscriptEntry, UiTranscriptParser } from './transcript.js';

const paint = (color: boolean, code: number, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
const oneLine = (text: string, max = 240) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** A tool input as the watcher wants to read it: the command or path when there is one. */
function describeInput(input: unknown): string {
  if (input && typeof input === 'object') {
    const o = input as Record<string, unknown>;
    for (const key of ['command', 'cmd', 'file_path', 'path', 'pattern', 'url', 'query', 'prompt']) {
      if (typeof o[key] === 'string') return o[key];
    }
  }
  try {
    return JSON.stringify(input) ?? '';
  } catch {
    return String(input);
  }
}

/** One printable line per transcript entry (null: nothing worth showing). */
export function formatEntry(entry: TranscriptEntry, color: boolean): string | null {
  switch (entry.kind) {
    case 'init':
      return paint(color, 2, `session ${entry.sessionId ?? '?'}${entry.model ? ` · model ${entry.model}` : ''}`);
    case 'assistant':
      return entry.text.trim() ? entry.text.trimEnd() : null;
    case 'thinking':
      return paint(color, 2, `(thinking) ${oneLine(entry.text)}`);
    case 'user':
      return paint(color, 36, `user: ${oneLine(entry.text)}`);
    case 'tool_call':
      return paint(color, 33, `→ ${entry.name}: ${oneLine(describeInput(entry.input))}`);
    case 'tool_result':
      return paint(color, entry.isError ? 31 : 2, `${entry.isError ? '✗' : '←'} ${oneLine(entry.content)}`);
    case 'result': {
      const cost = entry.costUsd === null ? '' : ` · $${entry.costUsd.toFixed(4)}`;
      const tokens = ` · ${entry.inputTokens} in / ${entry.outputTokens} out / ${entry.cachedTokens} cached${cost}`;
      const text = entry.text || entry.errors.join('; ');
      return entry.isError ? paint(color, 31, `✗ ${entry.subtype ?? 'error'}: ${oneLine(text)}${tokens}`) : paint(color, 32, `✓ ${oneLine(text)}${tokens}`);
    }
    case 'system':
      return paint(color, 2, oneLine(entry.text));
    case 'stderr':
      return paint(color, 31, entry.text);
    case 'stdout':
      return entry.text;
  }
}

/**
 * A CLI formatter built on an adapter's UI parser: the watcher and the board show the same
 * entries. Several entries of one line become several printed lines.
 */
export function entryFormatter(parser: UiTranscriptParser): CliFormatter {
  return {
    formatLine(line, options) {
      const shown = parser
        .parseStdoutLine(line, '')
        .map((e) => formatEntry(e, options.color))
        .filter((s): s is string => s !== null);
      return shown.length ? shown.join('\n') : null;
    },
  };
}
