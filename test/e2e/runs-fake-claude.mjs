#!/usr/bin/env node
// A stand-in for Claude Code's `--output-format stream-json` for the transcript tests: it prints
// FAKE_MB megabytes of realistic events (assistant text, tool calls with inputs, tool results) as
// fast as the pipe takes them, then one assistant line every FAKE_TICK_MS for FAKE_LIVE_MS (the live
// part a reader follows), then a result event with usage and cost. Arguments are ignored.
const env = process.env;
const targetBytes = Number(env.FAKE_MB ?? '1') * 1024 * 1024;
const liveMs = Number(env.FAKE_LIVE_MS ?? '0');
const tickMs = Number(env.FAKE_TICK_MS ?? '250');
let written = 0;

function out(event) {
  const line = JSON.stringify(event) + '\n';
  written += Buffer.byteLength(line);
  return process.stdout.write(line);
}
const drain = () => new Promise((r) => process.stdout.once('drain', r));

out({ type: 'system', subtype: 'init', model: 'claude-fake-1', session_id: 'fake-session-1', tools: ['Bash', 'Read'] });
const filler = 'The quick brown fox inspects the repository and plans the next change carefully. ';
for (let i = 0; written < targetBytes; i++) {
  const id = `toolu_${i}`;
  let ok = out({ type: 'assistant', message: { content: [{ type: 'text', text: `Step ${i}: ${filler.repeat(1 + (i % 4))}` }] } });
  ok = out({ type: 'assistant', message: { content: [{ type: 'tool_use', id, name: i % 3 ? 'Bash' : 'Read', input: i % 3 ? { command: `grep -rn "pattern${i}" src/ | head -50`, description: 'Search' } : { file_path: `/work/src/module-${i}.ts` } }] } }) && ok;
  ok = out({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: id, content: Array.from({ length: 12 }, (_, k) => `src/file-${i}-${k}.ts:${k + 1}: const value${k} = compute(${i}, ${k}); // ${filler}`).join('\n') }] } }) && ok;
  if (i % 50 === 0) process.stderr.write(`progress ${i}\n`);
  if (!ok) await drain();
}
out({ type: 'assistant', message: { content: [{ type: 'text', text: 'REPLAY-END marker: everything above was written before the page opened.' }] } });

const started = Date.now();
for (let tick = 1; Date.now() - started < liveMs; tick++) {
  await new Promise((r) => setTimeout(r, tickMs));
  out({ type: 'assistant', message: { content: [{ type: 'text', text: `live tick ${tick}` }] } });
}
out({
  type: 'result',
  subtype: 'success',
  is_error: false,
  result: 'All done: the fake agent finished its work.',
  total_cost_usd: 0.0123,
  usage: { input_tokens: 1200, output_tokens: 340, cache_read_input_tokens: 5000, cache_creation_input_tokens: 0 },
});
