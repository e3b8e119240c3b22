#!/usr/bin/env node
// Headcount's bundled demo agent. No model, no API key, no dependencies: it follows the heartbeat
// skill (main/core/heartbeat/skill.md) step by step against the real API, so a new founder sees a
// whole heartbeat (checkout, comment, plan document, cost, status) without configuring anything.
// Run by the `process` adapter, which sets the SERVICE_* environment.

const env = process.env;
const say = (line) => process.stdout.write(line + '\n');
const warn = (line) => process.stderr.write(line + '\n');

for (const name of ['SERVICE_API_URL', 'SERVICE_API_KEY', 'SERVICE_RUN_ID', 'SERVICE_AGENT_ID', 'SERVICE_COMPANY_ID']) {
  if (!env[name]) {
    warn(`demo agent: ${name} is not set; run me from a Headcount heartbeat (process adapter).`);
    process.exit(1);
  }
}

async function api(method, path, body) {
  const res = await fetch(env.SERVICE_API_URL + path, {
    method,
    headers: {
      authorization: `Bearer ${env.SERVICE_API_KEY}`,
      'x-service-run-id': env.SERVICE_RUN_ID,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed };
}

/** Fails the run with a readable line when a step the demo relies on is refused. */
function expectOk(step, res, ...ok) {
  if (ok.includes(res.status)) return res.body;
  warn(`demo agent: ${step} failed: HTTP ${res.status} ${res.body?.code ?? ''} ${res.body?.error ?? ''}`.trimEnd());
  process.exit(1);
}

const company = env.SERVICE_COMPANY_ID;
const me = expectOk('who am I', await api('GET', '/api/agents/me'), 200);
say(`Hello, I'm ${me.name} (${me.title ?? me.role}). Heartbeat ${env.SERVICE_RUN_ID.slice(0, 8)} woke me (${env.SERVICE_WAKE_REASON ?? 'no reason given'}).`);

/** Checks an issue out for this run; a 409 means "not mine to take": never retry, pick other work. */
async function claim(ref) {
  const res = await api('POST', `/api/issues/${encodeURIComponent(ref)}/checkout`, { expectedStatuses: ['todo', 'backlog', 'blocked'] });
  if (res.status === 200) return res.body;
  if (res.status === 409) {
    say(`${ref} is not open for me (${res.body?.code}); leaving it alone.`);
    return null;
  }
  return expectOk(`checkout of ${ref}`, res, 200);
}

let issue = null;
if (env.SERVICE_TASK_ID) {
  say(`Looking at my task ${env.SERVICE_TASK_ID}${env.SERVICE_TASK_TITLE ? `: ${env.SERVICE_TASK_TITLE}` : ''}`);
  issue = await claim(env.SERVICE_TASK_ID);
}
if (!issue) {
  const list = expectOk('list my issues', await api('GET', `/api/companies/${company}/issues?assigneeAgentId=${me.id}&status=todo`), 200);
  for (const candidate of list.items) {
    if (candidate.identifier === env.SERVICE_TASK_ID) continue;
    say(`Picking up ${candidate.identifier}: ${candidate.title}`);
    issue = await claim(candidate.identifier);
    if (issue) break;
  }
}
if (!issue) {
  say('Nothing assigned to me is waiting. Going back to sleep.');
  process.exit(0);
}

const ref = issue.identifier;
say(`Checked out ${ref}; it is mine for this heartbeat.`);

expectOk('comment', await api('POST', `/api/issues/${ref}/comments`, { body: `Hi, ${me.name} here. I'm on it: writing a plan first.` }), 201);
say('Posted a comment.');

const plan = [
  `# Plan for ${issue.title}`,
  '',
  `Written by ${me.name}, the demo agent, during heartbeat \`${env.SERVICE_RUN_ID}\`.`,
  '',
  '1. Understand what is asked.',
  '2. Do the smallest thing that moves it forward.',
  '3. Report what it cost and mark the issue done.',
  '',
].join('\n');
const current = await api('GET', `/api/issues/${ref}/documents/plan`);
const baseRevisionId = current.status === 200 ? current.body.revisionId : undefined;
const doc = expectOk('plan document', await api('PUT', `/api/issues/${ref}/documents/plan`, { title: 'Plan', format: 'markdown', body: plan, ...(baseRevisionId ? { baseRevisionId } : {}) }), 200, 201);
say(`Wrote the plan document (revision ${doc.revisionNumber}).`);

expectOk(
  'cost report',
  await api('POST', `/api/companies/${company}/cost-events`, {
    agentId: me.id,
    provider: 'demo',
    model: 'demo-1',
    inputTokens: 42,
    outputTokens: 17,
    costCents: 0.5,
    issueId: ref,
  }),
  201,
);
say('Reported my cost: 0.5 cents (demo-1, 59 tokens).');

expectOk('status update', await api('PATCH', `/api/issues/${ref}`, { status: 'done', comment: `Done. The plan is in the \`plan\` document. — ${me.name}` }), 200);
say(`Moved ${ref} to done. See you next heartbeat!`);
