import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { eventually, readLog, waitForRunId } from '../heartbeat/helpers.js';
import { createSecret, ref } from './helpers.js';

let t: TestCore | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/**
 * A full-screen CLI printing a long token: wrapped at the terminal's width with the line's indent,
 * coloured part by part, written in small pieces so the stream splits it again. Run under a real
 * pseudo-terminal (node-pty), which turns its line feeds into `\r\n`.
 */
const TUI = `
const token = process.env.TOKEN;
const width = 48;
let out = '\\x1b[1mexport\\x1b[0m TOKEN=';
for (let i = 0; i < token.length; i += width) out += (i ? '\\n    ' : '') + '\\x1b[3' + (1 + (i / width) % 6) + 'm' + token.slice(i, i + width) + '\\x1b[0m';
out += '\\ndone\\n';
let at = 0;
const next = () => { if (at >= out.length) return; process.stdout.write(out.slice(at, at + 7)); at += 7; setTimeout(next, 2); };
next();
`;

describe('a secret a terminal program wraps and colours', () => {
  it('is redacted from the transcript in every piece, and the text around it is kept', async () => {
    t = await startCore();
    const companyId = await createCompany(t);
    const token = `ghp_${randomBytes(60).toString('hex')}`;
    const secret = await createSecret(t, companyId, 'GITHUB_TOKEN', token);
    const agent = (
      await t.api('POST', `/api/companies/${companyId}/agents`, {
        body: { name: 'Wrapper', adapterType: 'process', adapterConfig: { command: process.execPath, args: ['-e', TUI], env: { TOKEN: ref(secret.id) }, pty: true, timeoutSec: 30, graceMs: 500 } },
      })
    ).body;
    const invoked = await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: {} });
    expect(invoked.status).toBe(202);
    const run = await waitForRunId(t, invoked.body.runId, undefined, 30_000);
    expect(run.status).toBe('succeeded');
    const out = (await readLog(t, run.id)).map((r) => r.data).join('');
    expect(out).toContain('[redacted]');
    expect(out).toContain('TOKEN=');
    expect(out).toContain('done');
    // No piece of the token a reader could put back together: every 8 characters of it are gone.
    // eslint-disable-next-line no-control-regex
    const visible = out.replace(/\x1b\[[0-9;]*m/g, '');
    for (let i = 0; i + 8 <= token.length; i += 4) expect(visible).not.toContain(token.slice(i, i + 8));
  }, 40_000);
});

describe('the live transcript of a run that holds secrets', () => {
  it('shows a whole line while the agent waits, before it prints again', async () => {
    t = await startCore();
    const companyId = await createCompany(t);
    const secret = await createSecret(t, companyId, 'API_KEY', `sk-live-${randomBytes(16).toString('hex')}`);
    const line = '{"type":"assistant","text":"Running the tests"}';
    const agent = (
      await t.api('POST', `/api/companies/${companyId}/agents`, {
        body: { name: 'Waiter', adapterType: 'process', adapterConfig: { command: process.execPath, args: ['-e', `console.log(${JSON.stringify(line)}); setTimeout(() => {}, 20000);`], env: { API_KEY: ref(secret.id) }, timeoutSec: 30, graceMs: 500 } },
      })
    ).body;
    const runId = (await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: {} })).body.runId as string;
    // The redactor holds back only an end that begins one of the run's secrets (or its token).
    const shown = await eventually(async () => {
      const out = (await readLog(t!, runId)).map((r) => r.data).join('');
      return out.includes(`${line}\n`) ? out : undefined;
    }, 10_000, 'the whole line in the transcript');
    expect(shown).toContain(line);
    expect((await t.api('GET', `/api/heartbeat-runs/${runId}`)).body.status).toBe('running');
    expect((await t.api('POST', `/api/heartbeat-runs/${runId}/cancel`, {})).status).toBe(200);
    await waitForRunId(t, runId);
  }, 40_000);
});
