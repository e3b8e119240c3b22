#!/usr/bin/env node
// Headcount's bundled demo agent. No model, no API key, no dependencies: a scripted CEO and scripted
// engineers that act only through the real API with their run token, exactly as a real agent does
// (main/core/heartbeat/skill.md), while printing a transcript that reads like a coding agent at work.
// Run by the `process` adapter, which sets the SERVICE_* environment.
//
// Every heartbeat looks at the company as it is now and takes the next step of the story, so the
// story waits on the founder where a real company would (see README, "The demo company"):
//   CEO:      strategy document + approve_ceo_strategy approval → a question to the founder → after
//             the founder decides, or after a patience window, issues for Ben and a hire request →
//             asks Ben to retry his failed run → gives the hired engineer work once approved → done.
//   Engineer: checks out its issues, comments, writes a document, reports costs (the company's
//             budget warning shows on the way); the very first engineer run of the company fails.
// HEADCOUNT_DEMO_PACE scales every pause (1 = a few minutes in all; 0.01 for tests).

const env = process.env;
const say = (line) => process.stdout.write(line + '\n');
const warn = (line) => process.stderr.write(line + '\n');

for (const name of ['SERVICE_API_URL', 'SERVICE_API_KEY', 'SERVICE_RUN_ID', 'SERVICE_AGENT_ID', 'SERVICE_COMPANY_ID']) {
  if (!env[name]) {
    warn(`demo agent: ${name} is not set; run me from a Headcount heartbeat (process adapter).`);
    process.exit(1);
  }
}

const paceValue = Number(env.HEADCOUNT_DEMO_PACE ?? '1');
const PACE = Number.isFinite(paceValue) && paceValue >= 0 ? paceValue : 1;
/** Seconds the CEO waits for the founder's strategy decision before going ahead with the proposal. */
const PATIENCE_SEC = 75 * PACE;
const company = env.SERVICE_COMPANY_ID;

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

const pause = (sec) => new Promise((r) => setTimeout(r, sec * 1000 * PACE));

/**
 * Before every step: a paused or archived company stops the story here. The engine starts no new
 * heartbeat for such a company, and this makes a heartbeat already under way stop too.
 */
async function step(sec = 1.5) {
  await pause(sec);
  const c = await api('GET', `/api/companies/${company}`);
  if (c.status !== 200 || c.body.status !== 'active') {
    say(`The company is ${c.body?.status ?? 'gone'}; stopping here.`);
    process.exit(0);
  }
}

// Transcript lines shaped like a coding agent's: thinking, tool calls and their results.
const thinking = async (text, sec = 2) => {
  await step(sec);
  say(`✻ ${text}`);
};
const tool = async (name, arg, sec = 1) => {
  await step(sec);
  say(`● ${name}(${arg})`);
};
const result = (...lines) => lines.forEach((l, i) => say(`${i === 0 ? '  └ ' : '    '}${l}`));

async function comment(ref, body) {
  await tool('Comment', ref);
  expectOk(`comment on ${ref}`, await api('POST', `/api/issues/${ref}/comments`, { body }), 201);
  result(`Posted: "${body.length > 100 ? body.slice(0, 99) + '…' : body}"`);
}

async function writeDocument(ref, key, title, body) {
  await tool('Write', `${ref}/${key}.md`);
  const current = await api('GET', `/api/issues/${ref}/documents/${key}`);
  const baseRevisionId = current.status === 200 ? current.body.revisionId : undefined;
  const doc = expectOk(`document ${key}`, await api('PUT', `/api/issues/${ref}/documents/${key}`, { title, format: 'markdown', body, ...(baseRevisionId ? { baseRevisionId } : {}) }), 200, 201);
  result(`Wrote ${body.split('\n').length} lines (revision ${doc.revisionNumber}).`);
}

/** Reports usage as a cost event; stays below 90% of the company budget so the demo never hits the hard stop. */
async function reportCost(me, ref, cents, tokens) {
  const summary = expectOk('cost summary', await api('GET', `/api/companies/${company}/costs/summary`), 200);
  const room = summary.budgetMonthlyCents > 0 ? Math.floor((summary.budgetMonthlyCents * 0.9 - summary.spentCents) * 100) / 100 : cents;
  const amount = Math.max(0, Math.min(cents, room));
  if (amount > 0) {
    const body = { agentId: me.id, provider: 'demo', model: 'demo-1', inputTokens: tokens, outputTokens: Math.round(tokens / 4), costCents: amount, issueId: ref };
    expectOk('cost report', await api('POST', `/api/companies/${company}/cost-events`, body), 201);
    say(`  [usage] ${tokens} in / ${Math.round(tokens / 4)} out tokens, ${amount} cent${amount === 1 ? '' : 's'}`);
  }
  const after = expectOk('cost summary', await api('GET', `/api/companies/${company}/costs/summary`), 200);
  if (after.status === 'warning' && summary.status !== 'warning') {
    say(`⚠ Budget warning: the company has used ${after.spentCents} of its ${after.budgetMonthlyCents} cents this month. Keeping the rest of the work small.`);
  }
}

/** Checks an issue out for this run; a 409 means "not mine to take": never retry, pick other work. */
async function claim(ref) {
  await tool('Checkout', ref);
  const res = await api('POST', `/api/issues/${encodeURIComponent(ref)}/checkout`, { expectedStatuses: ['todo', 'backlog', 'blocked', 'in_progress'] });
  if (res.status === 200) {
    result(`${ref} is mine for this heartbeat.`);
    return res.body;
  }
  if (res.status === 409) {
    result(`${ref} is not open for me (${res.body?.code}); leaving it alone.`);
    return null;
  }
  return expectOk(`checkout of ${ref}`, res, 200);
}

const myIssues = async (me, statuses) =>
  expectOk('list my issues', await api('GET', `/api/companies/${company}/issues?assigneeAgentId=${me.id}&status=${statuses}`), 200).items;

const me = expectOk('who am I', await api('GET', '/api/agents/me'), 200);
say(`Hello, I'm ${me.name} (${me.title ?? me.role}). Heartbeat ${env.SERVICE_RUN_ID.slice(0, 8)} woke me (${env.SERVICE_WAKE_REASON ?? 'no reason given'}).`);

if (me.role === 'ceo') await ceo();
else await engineer();

// ---------------------------------------------------------------------------------------------- CEO

async function ceo() {
  await tool('Read', 'my open issues');
  const [mine] = await myIssues(me, 'todo,in_progress');
  if (!mine) {
    result('Nothing open.');
    return lateHire();
  }
  result(`${mine.identifier}: ${mine.title}`);
  const issue = await claim(mine.identifier);
  if (!issue) return;
  const ref = issue.identifier;

  await tool('Read', 'approvals');
  const approvals = expectOk('list approvals', await api('GET', `/api/companies/${company}/approvals`), 200);
  const strategy = approvals.find((a) => a.type === 'approve_ceo_strategy');
  const hire = approvals.find((a) => a.type === 'hire_agent');
  result(strategy ? `Strategy: ${strategy.status}. Hire: ${hire ? hire.status : 'not asked yet'}.` : 'None yet.');

  if (!strategy) return proposeStrategy(ref);

  const interactions = expectOk('list interactions', await api('GET', `/api/issues/${ref}/interactions`), 200);
  const question = interactions.find((i) => i.kind === 'ask_user_questions');
  if (!question) return askFounder(ref);

  if (!hire) {
    const waited = (Date.now() - Date.parse(strategy.createdAt)) / 1000;
    if (strategy.status === 'pending' && waited < PATIENCE_SEC) {
      await thinking(`The board has not decided on the strategy yet (${Math.round(waited)}s). A real CEO would not start hiring before that; I'll look again next heartbeat.`);
      return;
    }
    return kickOff(ref, strategy, question);
  }
  return followUp(ref, hire, question);
}

/** A hire the board approves after the week is done still gets its first task. */
async function lateHire() {
  const approvals = expectOk('list approvals', await api('GET', `/api/companies/${company}/approvals`), 200);
  const hire = approvals.find((a) => a.type === 'hire_agent' && a.status === 'approved');
  if (!hire?.hireAgentId) return say('Going back to sleep.');
  const theirs = expectOk('list issues', await api('GET', `/api/companies/${company}/issues?assigneeAgentId=${hire.hireAgentId}`), 200).items;
  if (theirs.length > 0) return say('Going back to sleep.');
  await thinking('The board approved Dana. Giving her a first task.');
  await createIssue('Connect sign-ups to Slack', 'Post each new sign-up to a Slack channel.', { id: hire.hireAgentId, name: 'Dana' });
}

async function proposeStrategy(ref) {
  await thinking('No strategy yet. Before anyone builds anything, the board should agree on what Demo Co does first.', 3);
  await thinking('Option A: a broad launch. Option B: one landing page, one sign-up form, learn from the first 50 sign-ups. B is cheaper and faster.', 3);
  const plan = [
    '# Demo Co: the first month',
    '',
    '## Bet',
    'Small teams lose hours every week to status meetings. Demo Co writes the weekly status for them.',
    '',
    '## Plan',
    '1. Ship a landing page with a sign-up form (Ben).',
    '2. Add a pricing section once the page is live.',
    '3. Hire a second engineer for the integrations.',
    '',
    '## Budget',
    'Stay within the monthly budget; slow down at the 80% warning.',
    '',
  ].join('\n');
  await writeDocument(ref, 'strategy', 'Strategy', plan);
  await tool('RequestApproval', 'approve_ceo_strategy');
  const approval = expectOk(
    'strategy approval',
    await api('POST', `/api/companies/${company}/approvals`, {
      type: 'approve_ceo_strategy',
      requestedByAgentId: me.id,
      payload: { version: 1, title: 'Demo Co: the first month', strategyMarkdown: plan, horizon: 'the first month' },
      issueIds: [ref],
    }),
    201,
  );
  result(`Approval ${approval.id.slice(0, 8)} is pending with the board.`);
  await comment(ref, 'I wrote the strategy (see the `strategy` document) and asked the board to approve it. Nothing gets built before that.');
  await reportCost(me, ref, 3, 4200);
  say('Waiting for the board. See you next heartbeat.');
}

async function askFounder(ref) {
  await thinking('While the board reads the strategy: who do we build for first? Only the founder can answer that.', 3);
  await tool('AskUserQuestions', ref);
  const created = expectOk(
    'question to the founder',
    await api('POST', `/api/issues/${ref}/interactions`, {
      kind: 'ask_user_questions',
      idempotencyKey: 'demo-first-customers',
      title: 'Who should Demo Co serve first?',
      summary: 'The answer decides what the landing page says.',
      continuationPolicy: 'wake_assignee',
      payload: {
        version: 1,
        questions: [
          {
            id: 'audience',
            prompt: 'Which customers should the landing page speak to first?',
            kind: 'single',
            options: [
              { id: 'startups', label: 'Startups of 5 to 20 people' },
              { id: 'agencies', label: 'Agencies' },
              { id: 'enterprise', label: 'Enterprise teams' },
            ],
          },
        ],
      },
    }),
    200,
    201,
  );
  result(`Question ${created.id.slice(0, 8)} is waiting for the founder.`);
  await reportCost(me, ref, 2, 2600);
  say('Asked the founder. See you next heartbeat.');
}

async function kickOff(ref, strategy, question) {
  if (strategy.status === 'approved') await thinking('The board approved the strategy. Time to get the team moving.');
  else if (strategy.status === 'pending') await thinking('The board has not answered yet. I go ahead with the proposed strategy as a working plan; the approval stays open, and the board can still stop it.');
  else await thinking(`The board answered "${strategy.status}"${strategy.decisionNote ? `: ${strategy.decisionNote}` : ''}. I keep only the smallest part of the plan: the landing page.`);
  const audience = question.status === 'answered' ? question.resolution?.answers?.audience : null;
  if (!audience) await thinking('No answer about customers yet; I assume startups of 5 to 20 people for now.', 1);

  const team = expectOk('list agents', await api('GET', `/api/companies/${company}/agents`), 200);
  const list = Array.isArray(team) ? team : team.items;
  const ben = list.find((a) => a.role === 'engineer' && a.status !== 'draft');
  await createIssue('Put up the landing page', `One page saying what Demo Co does for ${audience ?? 'startups'}, with a sign-up form.`, ben);

  await thinking('Integrations come next and Ben has his hands full: I ask the board to hire a second engineer.');
  await tool('RequestHire', 'Dana, Integrations Engineer');
  const hire = expectOk(
    'hire request',
    await api('POST', `/api/companies/${company}/agent-hires`, {
      name: 'Dana',
      role: 'engineer',
      title: 'Integrations Engineer',
      reportsTo: me.id,
      capabilities: 'Connects Demo Co to the tools teams already use.',
      budgetMonthlyCents: 0,
      adapterType: 'process',
      adapterConfig: { command: process.execPath, args: [process.argv[1]], timeoutSec: 900, graceMs: 2000, env: { HEADCOUNT_DEMO_PACE: String(PACE), ...(env.ELECTRON_RUN_AS_NODE ? { ELECTRON_RUN_AS_NODE: '1' } : {}) } },
      reason: 'Integrations with Slack and GitHub, while Ben builds the site.',
    }),
    201,
  );
  result(`Hire approval ${hire.approval.id.slice(0, 8)} is pending with the board.`);
  // No @mention here: Ben is already woken by his assignments, and a mention would queue a second run.
  await comment(ref, `Work has started: the landing page for ${ben.name}, and a hire request for Dana waiting on the board.`);
  await reportCost(me, ref, 4, 5100);
}

/** One issue at a time per engineer: a second assignment would wake it again on its own, and the retry would not need the CEO. */
async function createIssue(title, description, assignee) {
  await tool('CreateIssue', title);
  const created = expectOk('create issue', await api('POST', `/api/companies/${company}/issues`, { title, description, status: 'todo', priority: 'high', assigneeAgentId: assignee.id }), 201);
  result(`${created.identifier}, assigned to ${assignee.name}.`);
}

async function followUp(ref, hire, question) {
  await tool('Read', 'runs of the team');
  const runs = expectOk('list runs', await api('GET', `/api/companies/${company}/heartbeat-runs?limit=200`), 200).items;
  const failed = runs.find((r) => r.status === 'failed' && r.agentId !== me.id);
  const issues = expectOk('list issues', await api('GET', `/api/companies/${company}/issues?limit=200`), 200).items.filter((i) => i.assigneeAgentId && i.assigneeAgentId !== me.id);
  result(`${runs.length} runs so far${failed ? ', one failed' : ''}; ${issues.filter((i) => i.status === 'done').length} of ${issues.length} team issues done.`);
  const team = expectOk('list agents', await api('GET', `/api/companies/${company}/agents`), 200);
  const agents = Array.isArray(team) ? team : team.items;
  const nameOf = (id) => agents.find((a) => a.id === id)?.name ?? 'someone';

  if (failed) {
    const laterRun = runs.some((r) => r.agentId === failed.agentId && Date.parse(r.queuedAt) > Date.parse(failed.queuedAt));
    const target = issues.find((i) => i.assigneeAgentId === failed.agentId && i.status !== 'done') ?? issues.find((i) => i.assigneeAgentId === failed.agentId);
    if (!laterRun && target) {
      await thinking(`${nameOf(failed.agentId)}'s heartbeat ${failed.id.slice(0, 8)} failed (exit ${failed.exitCode}). Probably the flaky test; worth one retry.`);
      await comment(target.identifier, `@${nameOf(failed.agentId)} your last heartbeat failed (${failed.errorMessage ?? `exit ${failed.exitCode}`}). Please retry: check the test setup first.`);
    }
  }

  if (hire.status === 'approved' && hire.hireAgentId && !issues.some((i) => i.assigneeAgentId === hire.hireAgentId)) {
    await thinking('The board approved Dana. Giving her a first task.');
    await createIssue('Connect sign-ups to Slack', 'Post each new sign-up to a Slack channel.', { id: hire.hireAgentId, name: 'Dana' });
    return;
  }

  const landing = issues.find((i) => i.title === 'Put up the landing page');
  if (landing?.status === 'done' && !issues.some((i) => i.title === 'Add a pricing section')) {
    await thinking(`${landing.identifier} shipped. Next on the plan: pricing.`);
    await createIssue('Add a pricing section', 'Three plans, monthly prices, a FAQ of five questions.', { id: landing.assigneeAgentId, name: nameOf(landing.assigneeAgentId) });
    return;
  }

  const comments = expectOk('comments', await api('GET', `/api/issues/${ref}/comments`), 200);
  if (question.status === 'answered' && !comments.some((c) => c.authorAgentId === me.id && c.body.startsWith('Thanks for the answer'))) {
    await comment(ref, `Thanks for the answer: we speak to ${question.resolution?.answers?.audience ?? 'them'} first.`);
  }

  const open = issues.filter((i) => i.status !== 'done' && i.status !== 'cancelled');
  if (open.length > 0 || (hire.status === 'approved' && !issues.some((i) => i.assigneeAgentId === hire.hireAgentId))) {
    await thinking(`${open.length} team issue${open.length === 1 ? '' : 's'} still open. Checking back next heartbeat.`);
    return;
  }
  await thinking('Every issue of the team is done. Writing the week up for the board.');
  await tool('UpdateIssue', `${ref} → done`);
  expectOk('close', await api('PATCH', `/api/issues/${ref}`, { status: 'done', comment: `Week one is done: ${issues.map((i) => i.identifier).join(', ')} shipped. — ${me.name}` }), 200);
  result('Done. Nothing left for me this week.');
}

// ----------------------------------------------------------------------------------------- Engineer

async function engineer() {
  await tool('Read', 'my open issues');
  // Oldest first: the work in the order the CEO planned it.
  const open = (await myIssues(me, 'todo,in_progress')).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.identifier.localeCompare(b.identifier));
  result(open.length ? open.map((i) => `${i.identifier}: ${i.title}`).join('; ') : 'Nothing assigned to me is waiting.');
  if (open.length === 0) return;

  const runs = expectOk('list runs', await api('GET', `/api/companies/${company}/heartbeat-runs?limit=200`), 200).items;
  const anyFailed = runs.some((r) => r.status === 'failed');
  const retrying = runs.some((r) => r.status === 'failed' && r.agentId === me.id);
  if (retrying) await thinking('My last heartbeat failed on the test run. This time I set DATABASE_URL for the tests before running them.', 2);

  for (const found of open) {
    const issue = await claim(found.identifier);
    if (!issue) continue;
    const ref = issue.identifier;
    await comment(ref, retrying && found.status === 'in_progress' ? 'Retrying after my failed heartbeat, with the test database set up.' : `${me.name} here, on it.`);
    await thinking(`Reading ${ref}: ${issue.description ?? issue.title}`, 2);
    await tool('Bash', 'ls site/');
    result('index.html  styles.css  package.json  test/');
    await reportCost(me, ref, 8, 8300);
    await tool('Edit', 'site/index.html');
    result('Added 42 lines, removed 3 lines.');
    await tool('Bash', 'npm test');
    if (!anyFailed) {
      // The first engineer heartbeat of the company fails, so the board shows a failed run and its retry.
      result('> site@0.1.0 test', '> node --test', '', 'not ok 1 - sign-up form posts to /api/signup', '  Error: connect ECONNREFUSED 127.0.0.1:5432 (DATABASE_URL is not set)');
      warn('Error: the tests need a database: DATABASE_URL is not set.');
      process.exit(1);
    }
    result('ok 1 - sign-up form posts to /api/signup', 'ok 2 - page renders the headline', '# pass 2, fail 0');
    await reportCost(me, ref, 14, 12_400);
    const notes = [`# ${issue.title}: implementation notes`, '', `By ${me.name}, heartbeat \`${env.SERVICE_RUN_ID}\`.`, '', '- `site/index.html`: the change itself.', '- Tests: `npm test` (needs `DATABASE_URL`).', ''].join('\n');
    await writeDocument(ref, 'notes', 'Implementation notes', notes);
    await reportCost(me, ref, 14, 11_800);
    await tool('UpdateIssue', `${ref} → done`);
    expectOk('status update', await api('PATCH', `/api/issues/${ref}`, { status: 'done', comment: `Done: tests pass, notes in the \`notes\` document. — ${me.name}` }), 200);
    result('Done.');
  }
  say('All my issues are done. See you next heartbeat!');
}
