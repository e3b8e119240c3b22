// scratch: profile one list route on a kept home
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import path from 'node:path';
import { startServer, stopServer, processCpuMicros } from './lib.mjs';
const [home, which, profDir] = process.argv.slice(2);
const TOKEN = 'hcb_bench-board-token';
const db = new Database(path.join(home, 'service.db'), { readonly: true });
const company = db.prepare('SELECT id FROM companies ORDER BY created_at LIMIT 1').pluck().get();
const agent = db.prepare('SELECT assignee_agent_id FROM issues WHERE assignee_agent_id IS NOT NULL LIMIT 1').pluck().get();
const hot = db.prepare('SELECT issue_id FROM issue_comments GROUP BY issue_id ORDER BY count(*) DESC LIMIT 1').pluck().get();
db.close();
const paths = { issues: `/api/companies/${company}/issues`, todo: `/api/companies/${company}/issues?status=todo`, assignee: `/api/companies/${company}/issues?assigneeAgentId=${agent}`, runs: `/api/companies/${company}/heartbeat-runs`, agents: `/api/companies/${company}/agents`, org: `/api/companies/${company}/org`, comments: `/api/issues/${hot}/comments`, activity: `/api/companies/${company}/activity`, byAgent: `/api/companies/${company}/costs/by-agent`, inbox: `/api/companies/${company}/inbox` };
const server = await startServer(home, { SERVICE_BOARD_TOKEN: TOKEN }, profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []);
const headers = { authorization: `Bearer ${TOKEN}` };
for (const w of which.split(',')) {
  await autocannon({ url: server.url + paths[w], connections: 4, duration: 2, headers });
  const c0 = processCpuMicros(server.child.pid);
  const r = await autocannon({ url: server.url + paths[w], connections: 4, duration: Number(process.env.DUR ?? 5), headers });
  const cpu = processCpuMicros(server.child.pid) - c0;
  console.log(w, r.requests.average, 'req/s p50', r.latency.p50, 'p99', r.latency.p99, 'cpu µs/req', (cpu / r.requests.total).toFixed(0));
}
await stopServer(server);
