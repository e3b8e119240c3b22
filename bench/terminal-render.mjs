#!/usr/bin/env node
/**
 * Rendering terminal output to text (adapters/utils/src/terminal-text.ts, issue 14 point 15):
 * plain lines (which skip the emulator), escaped lines in one chunk, and one short escaped line per
 * call (the worst case: a write per line). Uses the built adapter utilities: `npm run build` first.
 * Prints one JSON line; a few seconds in all.
 */
import { renderTerminalLines } from '../adapters/utils/dist/terminal-text.js';

const N = 20_000;
const plain = Array.from({ length: N }, (_, i) => `{"type":"assistant","i":${i},"text":"${'x'.repeat(200)}"}`).join('\n') + '\n';
const escaped = Array.from({ length: N }, (_, i) => `\x1b[2K\x1b[1G\x1b[32mline ${i}\x1b[0m ${'y'.repeat(100)}\x1b[>4m\x1b[<u\r`).join('\n') + '\n';

async function time(fn) {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

const plainMs = await time(() => renderTerminalLines(plain));
const escapedMs = await time(() => renderTerminalLines(escaped));
const singles = 500;
const singleMs = await time(async () => {
  for (let i = 0; i < singles; i++) await renderTerminalLines(`\x1b[1mline ${i}\x1b[0m\x1b[>4m\x1b[<u`);
});
console.log(
  JSON.stringify({
    plainUsPerLine: +((plainMs * 1000) / N).toFixed(2),
    escapedUsPerLineInOneChunk: +((escapedMs * 1000) / N).toFixed(1),
    msPerSingleLineCall: +(singleMs / singles).toFixed(2),
    rssMb: Math.round(process.memoryUsage().rss / 1e6),
  }),
);
