import { describe, expect, it } from 'vitest';
import { formatLine, TranscriptPrinter } from '../../../main/cli/run-watch.js';

describe('transcript formatting', () => {
  it('compacts JSON lines with a type and leaves everything else raw', () => {
    expect(formatLine('{"type":"text","text":"hello"}')).toBe('text: hello');
    expect(formatLine('{"type":"checkout","status":200}')).toBe('checkout: status=200');
    expect(formatLine('{"type":"tool","input":{"a":1}}')).toBe('tool: input={"a":1}');
    expect(formatLine('{"type":"ping"}')).toBe('ping');
    expect(formatLine('{"kind":"no type"}')).toBe('{"kind":"no type"}');
    expect(formatLine('{not json')).toBe('{not json');
    expect(formatLine('plain words')).toBe('plain words');
  });

  it('joins chunks into lines per stream and prefixes stderr differently', () => {
    let out = '';
    const p = new TranscriptPrinter((s) => (out += s));
    p.push({ stream: 'stdout', at: 0, data: '{"type":"te' });
    p.push({ stream: 'stderr', at: 0, data: 'warn\r\nhalf' });
    p.push({ stream: 'stdout', at: 0, data: 'xt","text":"hi"}\n\x1b[32mgreen\x1b[0m\n' });
    p.flush();
    expect(out).toBe('  ! warn\n  │ text: hi\n  │ green\n  ! half\n');
  });
});
