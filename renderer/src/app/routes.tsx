import { lazy, type ComponentType } from 'react';
import type { PageProps } from './page-props.js';
import { DashboardPage } from '../pages/dashboard/DashboardPage.js';
import { OrgPage } from '../pages/org/OrgPage.js';
import { AgentsPage } from '../pages/agents/AgentsPage.js';
import { AgentDetailPage } from '../pages/agents/AgentDetailPage.js';
import { IssuesPage } from '../pages/issues/IssuesPage.js';
import { IssueDetailPage } from '../pages/issues/IssueDetailPage.js';
import { ApprovalsPage } from '../pages/approvals/ApprovalsPage.js';
import { ApprovalDetailPage } from '../pages/approvals/ApprovalDetailPage.js';
import { RunsPage } from '../pages/runs/RunsPage.js';
import { SecretsPage } from '../pages/secrets/SecretsPage.js';
import { AdaptersPage } from '../pages/adapters/AdaptersPage.js';
import { SettingsPage } from '../pages/settings/SettingsPage.js';
import { InboxPage } from '../pages/inbox/InboxPage.js';
import { RoutinesPage } from '../pages/routines/RoutinesPage.js';

// recharts is large: the costs page loads on first visit.
// xterm.js is large too: the run page (its terminal view) and the CRM page load on first visit.
const RunDetailPage = lazy(() => import('../pages/runs/RunDetailPage.js').then((m) => ({ default: m.RunDetailPage })));
const CrmPage = lazy(() => import('../pages/crm/CrmPage.js').then((m) => ({ default: m.CrmPage })));
const CostsPage = lazy(() => import('../pages/costs/CostsPage.js').then((m) => ({ default: m.CostsPage })));

export interface RouteDef {
  pattern: string;
  component: ComponentType<PageProps>;
  /** Shown in the sidebar when set. `shortcut` is the key after "g" (g then i = issues). */
  nav?: { label: string; section: 'work' | 'company' | 'system'; shortcut?: string };
}

/**
 * The board's pages, most specific first. To add a page: create it under pages/<area>/, add one
 * entry here (with `nav` to list it in the sidebar). Nothing else needs to know.
 */
export const routes: RouteDef[] = [
  { pattern: '/', component: DashboardPage, nav: { label: 'Dashboard', section: 'work', shortcut: 'd' } },
  { pattern: '/inbox', component: InboxPage, nav: { label: 'Inbox', section: 'work', shortcut: 'n' } },
  { pattern: '/issues', component: IssuesPage, nav: { label: 'Issues', section: 'work', shortcut: 'i' } },
  { pattern: '/issues/:issueId', component: IssueDetailPage },
  { pattern: '/approvals', component: ApprovalsPage, nav: { label: 'Approvals', section: 'work', shortcut: 'a' } },
  { pattern: '/approvals/:approvalId', component: ApprovalDetailPage },
  { pattern: '/routines', component: RoutinesPage, nav: { label: 'Routines', section: 'work', shortcut: 'u' } },
  { pattern: '/runs', component: RunsPage, nav: { label: 'Runs', section: 'work', shortcut: 'r' } },
  { pattern: '/runs/:runId', component: RunDetailPage },
  { pattern: '/agents', component: AgentsPage, nav: { label: 'Agents', section: 'company', shortcut: 'e' } },
  { pattern: '/agents/:agentId', component: AgentDetailPage },
  { pattern: '/org', component: OrgPage, nav: { label: 'Org chart', section: 'company', shortcut: 'o' } },
  { pattern: '/costs', component: CostsPage, nav: { label: 'Costs', section: 'company', shortcut: 'c' } },
  { pattern: '/crm', component: CrmPage, nav: { label: 'CRM', section: 'company', shortcut: 'm' } },
  { pattern: '/secrets', component: SecretsPage, nav: { label: 'Secrets', section: 'system', shortcut: 'k' } },
  { pattern: '/adapters', component: AdaptersPage, nav: { label: 'Adapters', section: 'system', shortcut: 'p' } },
  { pattern: '/settings', component: SettingsPage, nav: { label: 'Settings', section: 'system', shortcut: 's' } },
];
