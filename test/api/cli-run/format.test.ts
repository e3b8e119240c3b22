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

  it('joins chunks into lines per stream and prefixes stderr differently', async () => {
    let out = '';
    const p = new TranscriptPrinter((s) => (out += s));
    await p.push({ stream: 'stdout', at: 0, data: '{"type":"te' });
    await p.push({ stream: 'stderr', at: 0, data: 'warn\r\nhalf' });
    await p.push({ stream: 'stdout', at: 0, data: 'xt","text":"hi"}\n\x1b[32mgreen\x1b[0m\n' });
    await p.flush();
    expect(out).toBe('  ! warn\n  │ text: hi\n  │ green\n  ! half\n');
  });

  it('renders PTY output as the terminal shows it: private CSI, cursor moves, OSC titles leave no residue', async () => {
    let out = '';
    const p = new TranscriptPrinter((s) => (out += s));
    // Claude Code on exit: modifyOtherKeys off (CSI > 4 m) and the kitty keyboard pop (CSI < u).
    await p.push({ stream: 'stdout', at: 0, data: '\x1b[?25l\x1b]0;claude\x07Request timed out\x1b[>4m\x1b[<u\r\n' });
    await p.push({ stream: 'stdout', at: 0, data: 'Working |\r\x1b[KWorking /\r\x1b[2K\x1b[4mDone\x1b[24m\x1b[3C!\r\n' });
    await p.flush();
    expect(out).toBe('  │ Request timed out\n  │ Done   !\n');
  });
});
