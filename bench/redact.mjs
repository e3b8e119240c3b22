// Throughput of the run output redaction (main/core/heartbeat/redact.ts) on the transcript's hot
// path: 64 MiB of output in 4 KiB chunks through a StreamRedactor holding two secrets, for secrets
// of typical size up to the largest a company may store (64 KiB). Pure CPU, no I/O. Needs dist/.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ROOT, machine, writeResult } from './lib.mjs';

const MODULE = path.join(ROOT, 'dist', 'main', 'core', 'heartbeat', 'redact.js');
if (!existsSync(MODULE)) {
  console.error(`${MODULE} is missing: run \`npm run build\` first.`);
  process.exit(1);
}
const { StreamRedactor, secretForms } = await import(MODULE);

const TOTAL = 64 * 2 ** 20;
const results = [];
for (const size of [40, 1024, 4096, 65_536]) {
  const secrets = [randomBytes(Math.ceil((size * 3) / 4)).toString('base64').slice(0, size), `sk-${randomBytes(24).toString('base64')}`];
  // Output that carries the secret now and then, as a CLI echoing its environment would.
  const plain = 'x'.repeat(4095) + '\n';
  const leaky = `${'y'.repeat(1000)} ${secrets[1]} ${encodeURIComponent(secrets[1])}\n`.padEnd(4096, 'z');
  const redactor = new StreamRedactor(secrets);
  const started = performance.now();
  let bytes = 0;
  for (let i = 0; bytes < TOTAL; i++) {
    const chunk = i % 64 === 0 ? leaky : plain;
    redactor.push(chunk);
    bytes += chunk.length;
  }
  redactor.end();
  const seconds = (performance.now() - started) / 1000;
  const forms = secrets.flatMap(secretForms);
  results.push({ secretChars: size, forms: forms.length, longestFormChars: Math.max(...forms.map((f) => f.length)), mibPerSecond: Math.round((bytes / 2 ** 20 / seconds) * 10) / 10 });
  console.log(`secret of ${size} chars: ${results.at(-1).mibPerSecond} MiB/s (${forms.length} forms, longest ${results.at(-1).longestFormChars})`);
}
console.log(`wrote ${writeResult('redact', { machine: machine(), totalMiB: TOTAL / 2 ** 20, chunkBytes: 4096, results })}`);
