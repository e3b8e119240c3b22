// Summarises a .cpuprofile: self time per function (top N) and per package/module folder.
// Usage: node bench/profile-top.mjs <file.cpuprofile> [N]
import { readFileSync } from 'node:fs';

const [file, n = '25'] = process.argv.slice(2);
const prof = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((node) => [node.id, node]));
const self = new Map();
const dt = prof.timeDeltas;
for (let i = 0; i < prof.samples.length; i++) self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + (dt[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const fn = new Map();
const mod = new Map();
for (const [id, us] of self) {
  const { functionName, url, lineNumber } = byId.get(id).callFrame;
  const where = url.replace(/^file:\/\//, '').replace(/.*node_modules\//, 'nm:').replace(/.*\/dist\//, 'dist/');
  const key = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
  fn.set(key, (fn.get(key) ?? 0) + us);
  const m = where.startsWith('nm:') ? where.split('/').slice(0, where.startsWith('nm:@') ? 2 : 1).join('/') : where.startsWith('dist/') ? where.split('/').slice(0, 4).join('/') : where || functionName;
  mod.set(m, (mod.get(m) ?? 0) + us);
}
// Inclusive time of Headcount's own functions (dist/): what each one costs with all it calls.
const parent = new Map();
for (const node of prof.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
const incl = new Map();
for (const [id, us] of self) {
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const { functionName, url, lineNumber } = byId.get(cur).callFrame;
    if (!url.includes(process.env.INCL ?? '/dist/')) continue;
    const key = `${functionName || '(anonymous)'} ${url.replace(/.*\/(dist|node_modules)\//, '')}:${lineNumber + 1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    incl.set(key, (incl.get(key) ?? 0) + us);
  }
}
const pct = (us) => `${((us / total) * 100).toFixed(1)}%`;
console.log(`total sampled ${(total / 1e6).toFixed(1)} s`);
console.log('-- self time by function');
for (const [k, us] of [...fn].sort((a, b) => b[1] - a[1]).slice(0, Number(n))) console.log(pct(us).padStart(6), k);
console.log('-- self time by module');
for (const [k, us] of [...mod].sort((a, b) => b[1] - a[1]).slice(0, Number(n))) console.log(pct(us).padStart(6), k);
console.log('-- inclusive time of dist/ functions');
for (const [k, us] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, Number(n))) console.log(pct(us).padStart(6), k);
