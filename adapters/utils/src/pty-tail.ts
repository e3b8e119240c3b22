import { closeSync, constants, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** What node-pty's UnixTerminal has at runtime beyond its typings. */
interface PtyInternals {
  pid: number;
  ptsName?: string;
  _pty?: string;
  _fd?: number;
}

/**
 * Keeps the last output of a PTY child. On Linux, when the last holder of the terminal's slave
 * side exits, the master reads EIO as soon as the kernel has not yet moved the final bytes into its
 * read buffer: under load the child's last lines — an agent CLI's result line with usage and cost —
 * were lost (32 of 40 short runs in a measurement). So the parent holds the slave open itself; once
 * the child is gone it drains the master synchronously and only then closes the slave, which lets
 * node-pty see end-of-file and report the exit. Returns `release()` for the exit handler.
 * (A UTF-8 character split exactly between node-pty's last read and the drain may be garbled.)
 */
export function holdPtyTail(term: PtyInternals, emit: (text: string) => void, pollMs = 20): () => void {
  const slavePath = term.ptsName ?? term._pty;
  const masterFd = term._fd;
  if (process.platform === 'win32' || !slavePath || typeof masterFd !== 'number') return () => {};
  let slaveFd: number | null;
  try {
    slaveFd = openSync(slavePath, constants.O_RDWR | constants.O_NOCTTY);
  } catch {
    return () => {};
  }
  const release = () => {
    clearInterval(timer);
    if (slaveFd === null) return;
    try {
      closeSync(slaveFd);
    } catch {
      // already closed
    }
    slaveFd = null;
  };
  const drain = () => {
    const decoder = new StringDecoder('utf8');
    const buf = Buffer.alloc(64 * 1024);
    for (;;) {
      let n = 0;
      try {
        n = readSync(masterFd, buf, 0, buf.length, null);
      } catch {
        break; // EAGAIN: nothing left
      }
      if (n <= 0) break;
      const text = decoder.write(buf.subarray(0, n));
      if (text) emit(text);
    }
    const tail = decoder.end();
    if (tail) emit(tail);
  };
  const timer = setInterval(() => {
    try {
      process.kill(term.pid, 0);
      return; // still running
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EPERM') return;
    }
    drain();
    release();
  }, pollMs);
  return release;
}
