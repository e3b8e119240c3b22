import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TranscriptPrinter, formatterFor, genericFormatter } from '../../../main/cli/run-watch.js';

const FIXTURE = path.resolve(import.meta.dirname, '../../../adapters/vendor-a-local/fixtures/success-tool-use.jsonl');

describe('headcount run watch formatting', () => {
  it("uses the run's adapter's CLI formatter, the generic one otherwise", () => {
    expect(formatterFor('vendor_a_local')).not.toBe(genericFormatter);
    expect(formatterFor('process')).toBe(genericFormatter);
    expect(formatterFor('no_such_adapter')).toBe(genericFormatter);
    expect(formatterFor(undefined)).toBe(genericFormatter);
  });

  it('prints Claude Code stream-json as readable lines, chunked and PTY-decorated as it arrives', async () => {
    let out = '';
    const printer = new TranscriptPrinter((s) => (out += s), formatterFor('vendor_a_local'));
    const text = readFileSync(FIXTURE, 'utf8').replace(/\n/g, '\r\n');
    for (let i = 0; i < text.length; i += 97) await printer.push({ stream: 'stdout', at: 0, data: text.slice(i, i + 97) });
    await printer.push({ stream: 'stderr', at: 0, data: 'a warning\n' });
    await printer.flush();
    expect(out.split('\n').filter(Boolean)).toEqual([
      '  │ session acd5810d-9a38-4668-9825-a7cea6a8f42d · model claude-opus-4-8[1m]',
      '  │ Let me check who I am.',
      '  │ → Bash: echo agent-$SERVICE_AGENT_ID',
      '  │ ← agent-a-1',
      '  │ Done. The tool said: agent-a-1',
      '  │ ✓ Done. The tool said: agent-a-1 · 1350 in / 50 out / 1000 cached · $0.0097',
      '  ! a warning',
    ]);
  });

  it('adds colours only when asked', async () => {
    let out = '';
    const printer = new TranscriptPrinter((s) => (out += s), formatterFor('vendor_a_local'), true);
    await printer.push({ stream: 'stdout', at: 0, data: readFileSync(FIXTURE, 'utf8').split('\n')[2] + '\n' });
    expect(out).toContain('\x1b[33m→ Bash');
  });
});
