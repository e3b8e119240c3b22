import { Suspense, useEffect, useMemo } from 'react';
import { useCompanies, useApprovals, useInbox } from '../api/hooks.js';
import { useInboxWatch } from './inbox-watch.js';
import { routes } from './routes.js';
import { href, matchPath, navigate, useRoute } from './router.js';
import { LiveUpdates } from './api-context.js';
import { useGoShortcuts } from './shortcuts.js';
import { nextTheme, useUi } from '../stores/ui.js';
import { useSession } from './session.js';
import { CommandPalette } from '../palette/CommandPalette.js';
import { Loading, ErrorBox } from '../components/Page.js';
import { EmptyState } from '../components/EmptyState.js';
import { Button } from '../components/Button.js';
import { OnboardingPage } from '../pages/onboarding/OnboardingPage.js';
import type { Company } from '../api/types.js';
import { KeychainWarning } from '../components/KeychainWarning.js';

const SECTIONS = [
  { id: 'work', label: 'Work' },
  { id: 'company', label: 'Company' },
  { id: 'system', label: 'System' },
] as const;

const LIVE_LABEL = { live: 'Live', connecting: 'Connecting', reconnecting: 'Reconnecting', stopped: 'Offline', unauthorized: 'Signed out' } as const;
const THEME_LABEL = { system: 'Theme: system', light: 'Theme: light', dark: 'Theme: dark' } as const;

function matchRoute(path: string) {
  for (const r of routes) {
    const params = matchPath(r.pattern, path);
    if (params) return { route: r, params };
  }
  return null;
}

/** `g` then a letter: the routes are static, so the map is built once. */
const GO_SHORTCUTS: Record<string, () => void> = Object.fromEntries(
  routes.flatMap((r) => (r.nav?.shortcut ? [[r.nav.shortcut, () => navigate(r.pattern)] as const] : [])),
);

/** The window's frame: sidebar with company switcher and navigation, the routed page, live updates. */
export function Shell() {
  const companies = useCompanies();
  const route = useRoute();
  const companyId = useUi((s) => s.companyId);
  const setCompanyId = useUi((s) => s.setCompanyId);
  const active = useMemo(() => (companies.data ?? []).filter((c) => c.status !== 'archived'), [companies.data]);

  // Deep links (desktop notifications) name their company: `#/runs/<id>?company=<companyId>`.
  const linked = route.query.get('company');
  // Keep the selection on a company that exists.
  useEffect(() => {
    if (!companies.data) return;
    if (active.length === 0) return;
    if (linked && linked !== companyId && active.some((c) => c.id === linked)) setCompanyId(linked);
    else if (!companyId || !active.some((c) => c.id === companyId)) setCompanyId(active[0]!.id);
  }, [companies.data, active, companyId, setCompanyId, linked]);

  if (companies.isPending) return <div className="center-screen"><Loading label="Opening Headcount" /></div>;
  if (companies.isError) return <div className="center-screen"><div className="center-card"><ErrorBox error={companies.error} retry={() => void companies.refetch()} /></div></div>;
  if (active.length === 0 || route.path === '/onboarding') {
    return <OnboardingPage firstRun={active.length === 0} />;
  }
  const selected = active.find((c) => c.id === companyId) ?? active[0]!;
  return <Frame companies={active} company={selected} />;
}

function Frame({ companies, company }: { companies: Company[]; company: Company }) {
  const route = useRoute();
  const setCompanyId = useUi((s) => s.setCompanyId);
  const theme = useUi((s) => s.theme);
  const setTheme = useUi((s) => s.setTheme);
  const live = useUi((s) => s.live);
  const session = useSession();
  const pending = useApprovals(company.id, 'pending');
  const inbox = useInbox(company.id);
  useInboxWatch(company.id, inbox.data?.items);
  const match = useMemo(() => matchRoute(route.path), [route.path]);

  useGoShortcuts(GO_SHORTCUTS);

  const Page = match?.route.component;
  return (
    <div className="shell">
      <LiveUpdates companyId={company.id} />
      <CommandPalette companyId={company.id} />
      <nav className="sidebar" aria-label="Main">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">H</span>
          Headcount
        </div>
        <label className="sr-only" htmlFor="company-switcher">Company</label>
        <select
          id="company-switcher"
          className="input select"
          value={company.id}
          onChange={(e) => {
            if (e.target.value === '__new') navigate('/onboarding');
            else {
              setCompanyId(e.target.value);
              navigate('/');
            }
          }}
        >
          {companies.map((c) => (
            <option key={c.id} value={c.id}>{c.name}</option>
          ))}
          <option value="__new">+ New company…</option>
        </select>
        {SECTIONS.map((section) => {
          const items = routes.filter((r) => r.nav?.section === section.id);
          if (items.length === 0) return null;
          return (
            <div className="nav" key={section.id}>
              <div className="nav-section">{section.label}</div>
              {items.map((r) => {
                const current = r.pattern === '/' ? route.path === '/' : route.path === r.pattern || route.path.startsWith(`${r.pattern}/`);
                const count = r.pattern === '/approvals' ? pending.data?.length : r.pattern === '/inbox' ? inbox.data?.count : undefined;
                return (
                  <a key={r.pattern} href={href(r.pattern)} aria-current={current ? 'page' : undefined} title={r.nav?.shortcut ? `g then ${r.nav.shortcut}` : undefined}>
                    {r.nav!.label}
                    {count ? <span className="nav-count" aria-label={r.pattern === '/inbox' ? `${count} unread` : `${count} pending`}>{count}</span> : null}
                  </a>
                );
              })}
            </div>
          );
        })}
        <div className="sidebar-footer">
          <span className="live-dot" data-status={live} aria-hidden="true" />
          <span className="muted" role="status" aria-label={`Live updates: ${LIVE_LABEL[live]}`}>{LIVE_LABEL[live]}</span>
          <span className="spacer" />
          <Button variant="ghost" size="sm" aria-label={`${THEME_LABEL[theme]}. Change theme`} onClick={() => setTheme(nextTheme(theme))}>
            {theme === 'system' ? 'Auto' : theme === 'light' ? 'Light' : 'Dark'}
          </Button>
          {session.signOut ? (
            <Button variant="ghost" size="sm" onClick={session.signOut}>Sign out</Button>
          ) : null}
        </div>
      </nav>
      <main className="main" id="main">
        {/* DESIGN.md: a master key kept less safely than in the OS keychain is said loudly, here too. */}
        <KeychainWarning />
        <Suspense fallback={<div className="page"><Loading /></div>}>
          {Page && match ? (
            <Page key={`${company.id}:${route.path}`} companyId={company.id} params={match.params} query={route.query} />
          ) : (
            <div className="page">
              <EmptyState title="Nothing here" action={<Button onClick={() => navigate('/')}>Go to the dashboard</Button>}>
                The address {route.path} is not a page of the board.
              </EmptyState>
            </div>
          )}
        </Suspense>
      </main>
    </div>
  );
}
