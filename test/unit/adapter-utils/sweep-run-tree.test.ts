import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { alive } from '../../helpers/processes.js';
import { scanRunTree, sweepRunTree } from '@service/adapter-utils';

const TAG_VAR = 'SERVICE_PROCESS_TAG';


const started: number[] = [];
/** A `sleep` in a session of its own (as after `setsid`), carrying the run's tag. */
function tagged(tag: string): number {
  const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore', env: { ...process.env, [TAG_VAR]: tag } });
  child.unref();
  started.push(child.pid!);
  return child.pid!;
}

afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

describe.runIf(process.platform === 'linux')('sweepRunTree', () => {
  it('kills a process forked between its scan and its signal (the setsid race), by scanning again', async () => {
    const tag = randomUUID();
    const leader = tagged(tag);
    const before = tagged(tag);
    let racer = 0;
    const scans: Set<number>[] = [];
    // The real scan, after which a new tagged process appears at once: exactly what a `setsid`
    // forking after the scan does. A single scan-and-kill can never see it.
    const racingScan = (pid: number, t: string) => {
      const found = scanRunTree(pid, t);
      scans.push(found);
      if (scans.length === 1) racer = tagged(tag);
      return found;
    };

    await sweepRunTree(leader, tag, 2000, racingScan);

    expect(scans[0]!.has(before)).toBe(true);
    expect(scans[0]!.has(racer)).toBe(false);
    expect(scans.length).toBeGreaterThanOrEqual(2);
    expect(await alive(leader)).toBe(false);
    expect(await alive(before)).toBe(false);
    expect(await alive(racer)).toBe(false);
  });
});
