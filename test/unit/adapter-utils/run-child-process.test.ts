import { describe, expect, it } from 'vitest';
import { alive, running } from '../../helpers/processes.js';
import { runChildProcess, renderTemplate, buildServiceEnv, asBoolean, asNumber, asString } from '@service/adapter-utils';

import { readdirSync, readFileSync } from 'node:fs';


async function collect(command: string, opts: Parameters<typeof runChildProcess>[1] = {}) {
  let stdout = '';
  let stderr = '';
  const result = await runChildProcess(command, { ...opts, onStdout: (c) => (stdout += c), onStderr: (c) => (stderr += c) });
  return { result, stdout, stderr };
}

describe('runChildProcess with pipes', () => {
  it('separates stdout and stderr, passes env and stdin, reports the exit code', async () => {
    const { result, stdout, stderr } = await collect('sh', {
      args: ['-c', 'read line; echo "got $line $GREETING"; echo oops >&2; exit 3'],
      env: { GREETING: 'hello' },
      stdin: 'input\n',
    });
    expect(stdout).toBe('got input hello\n');
    expect(stderr).toBe('oops\n');
    expect(result).toMatchObject({ exitCode: 3, signal: null, timedOut: false, cancelled: false });
  });

  it('never splits a UTF-8 character across chunks', async () => {
    // "é" is C3 A9; the two bytes are written 100 ms apart.
    const { stdout } = await collect('sh', { args: ['-c', "printf '\\303'; sleep 0.1; printf '\\251\\n'"] });
    expect(stdout).toBe('é\n');
  });

  it('rejects when the command does not exist', async () => {
    await expect(runChildProcess('definitely-not-a-command-xyz')).rejects.toThrow(/ENOENT/);
  });

  it('times out: SIGTERM to the tree, then SIGKILL after the grace period for a child that ignores it', async () => {
    const { result, stdout } = await collect('sh', {
      args: ['-c', "trap '' TERM; echo started; while true; do sleep 0.05; done"],
      timeout: 300,
      graceMs: 300,
    });
    expect(stdout).toBe('started\n');
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe('SIGKILL');
    // The limit is enforced: timeout + grace, plus slack for a loaded machine.
    expect(result.durationMs).toBeLessThan(300 + 300 + 1000);
  });

  it('cancel kills grandchildren too, leaving no survivor in the group', async () => {
    const controller = new AbortController();
    let stdout = '';
    const runningRun = runChildProcess('sh', {
      args: ['-c', 'sleep 30 & echo $!; sleep 30 & echo $!; wait'],
      signal: controller.signal,
      graceMs: 1000,
      onStdout: (c) => {
        stdout += c;
        if (stdout.split('\n').length > 2) controller.abort();
      },
    });
    const result = await runningRun;
    const pids = stdout.trim().split('\n').map(Number);
    expect(pids).toHaveLength(2);
    expect(result.cancelled).toBe(true);
    for (const pid of pids) expect(await alive(pid)).toBe(false);
  });

  it('returns only once no process it started is left, even those forked while it was looking', async () => {
    // The leader leaves behind a detached loop that keeps starting `setsid` children: whatever is
    // forked between a scan of the processes and the signals must be caught by another round.
    const mark = `mark-${process.pid}-${Date.now()}`;
    const { result } = await collect('node', {
      args: ['-e', "require('child_process').spawn('sh',['-c','for i in $(seq 1 300); do setsid sleep 1000 & done; wait'],{stdio:'ignore',detached:true}).unref(); setTimeout(()=>{},200)"],
      env: { LEFTOVER_MARK: mark },
      confinement: null,
    });
    expect(result.exitCode).toBe(0);
    const left = readdirSync('/proc').filter((n) => /^\d+$/.test(n) && running(Number(n))).filter((n) => {
      try {
        return readFileSync(`/proc/${n}/environ`, 'utf8').includes(mark);
      } catch {
        return false;
      }
    });
    expect(left).toEqual([]);
  });

  it('reports a child killed from outside with its signal', async () => {
    const { result } = await collect('sh', {
      args: ['-c', 'sleep 30'],
      onSpawn: (pid: number) => setTimeout(() => process.kill(pid, 'SIGKILL'), 100),
    });
    expect(result.signal).toBe('SIGKILL');
    expect(result.exitCode).toBeNull();
    expect(result.timedOut).toBe(false);
  });

  it('fails a run that goes quiet for longer than idleTimeout', async () => {
    const { result } = await collect('sh', { args: ['-c', 'echo one; sleep 30'], idleTimeout: 300, graceMs: 200 });
    expect(result.idleTimedOut).toBe(true);
  });
});

describe('runChildProcess under a pseudo-terminal', () => {
  it('runs with a TTY, takes stdin and ends at EOF', async () => {
    const { result, stdout } = await collect('sh', {
      args: ['-c', 'if [ -t 1 ]; then echo tty; fi; cat; echo done'],
      pty: true,
      stdin: 'typed text\n',
    });
    expect(result.exitCode).toBe(0);
    expect(stdout).toContain('tty');
    expect(stdout).toContain('typed text');
    expect(stdout).toContain('done');
  });

  it('times out and kills the whole session', async () => {
    let stdout = '';
    const result = await runChildProcess('sh', {
      args: ['-c', 'sleep 30 & echo $!; wait'],
      pty: true,
      timeout: 300,
      graceMs: 300,
      onStdout: (c) => (stdout += c),
    });
    expect(result.timedOut).toBe(true);
    const grandchild = Number(stdout.trim().split(/\s+/)[0]);
    expect(grandchild).toBeGreaterThan(1);
    expect(await alive(grandchild)).toBe(false);
  });
});

describe('helpers', () => {
  it('renders templates', () => {
    expect(renderTemplate('Hi {{ agentName }}, task {{taskId}}{{missing}}.', { agentName: 'Ada', taskId: 'ACME-1' })).toBe('Hi Ada, task ACME-1.');
  });
  it('builds the SERVICE_* environment, leaving unknowns out', () => {
    expect(buildServiceEnv({ apiUrl: 'http://127.0.0.1:1', apiKey: 'k', runId: 'r', agent: { id: 'a', companyId: 'c' }, taskId: 'ACME-1' })).toEqual({
      SERVICE_API_URL: 'http://127.0.0.1:1',
      SERVICE_API_KEY: 'k',
      SERVICE_RUN_ID: 'r',
      SERVICE_AGENT_ID: 'a',
      SERVICE_COMPANY_ID: 'c',
      SERVICE_TASK_ID: 'ACME-1',
    });
  });
  it('coerces loosely typed config', () => {
    expect(asNumber('300', 1)).toBe(300);
    expect(asNumber('x', 1)).toBe(1);
    expect(asBoolean('yes', false)).toBe(true);
    expect(asBoolean(undefined, true)).toBe(true);
    expect(asString(5)).toBe('5');
    expect(asString({}, 'd')).toBe('d');
  });
});
