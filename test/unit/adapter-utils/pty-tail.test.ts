import { describe, expect, it } from 'vitest';
import { runChildProcess } from '@service/adapter-utils';

describe('runChildProcess under a PTY', () => {
  it('keeps the last lines of children that print and exit at once, many at a time', async () => {
    // Each child writes 6 KB and a final marker, then exits immediately: the case where Linux
    // dropped the unread tail when the terminal's slave side closed.
    const script = "process.stdout.write('x'.repeat(6000) + '\\nEND-OF-OUTPUT\\n')";
    const outputs = await Promise.all(
      Array.from({ length: 24 }, async () => {
        let out = '';
        const result = await runChildProcess(process.execPath, { args: ['-e', script], pty: true, onStdout: (c) => (out += c) });
        return { out, exitCode: result.exitCode };
      }),
    );
    for (const { out, exitCode } of outputs) {
      expect(exitCode).toBe(0);
      expect(out).toContain('END-OF-OUTPUT');
      expect(out.split('x').length - 1).toBe(6000);
    }
  });
});
