import { useEffect, useMemo, useState } from 'react';
import { Command } from 'cmdk';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../app/api-context.js';
import { navigate } from '../app/router.js';
import { routes } from '../app/routes.js';
import { useShortcut } from '../shortcuts/registry.js';
import { toggleShortcutHelp } from '../shortcuts/ShortcutHelp.js';
import { nextTheme, useUi } from '../stores/ui.js';
import './palette.css';

interface SearchResults {
  issues: { id: string; identifier: string; title: string; status: string; matchedIn: string; snippet: { text: string; match: boolean }[] }[];
  agents: { id: string; name: string; role: string; status: string }[];
  projects: { id: string; name: string; status: string }[];
}

/** Waits until typing pauses, so the server is asked once per word, not once per key. */
function useDebounced(value: string, ms: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

const matches = (label: string, q: string) => label.toLowerCase().includes(q.trim().toLowerCase());

/**
 * Ctrl/Cmd+K: one box over issues (server-side full-text search), agents, projects, pages and
 * actions. Registered in the board's shortcut registry like every other shortcut.
 */
export function CommandPalette({ companyId }: { companyId: string }) {
  const api = useApi();
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState('');
  const query = useDebounced(q.trim(), 120);
  const theme = useUi((s) => s.theme);
  const setTheme = useUi((s) => s.setTheme);
  useShortcut('mod+k', 'Search issues, agents, pages and actions', () => setOpen((v) => !v), { group: 'General' });

  const results = useQuery({
    queryKey: ['company', companyId, 'search', query],
    queryFn: ({ signal }) => api.request<SearchResults>('GET', `/api/companies/${companyId}/search`, { query: { q: query }, signal }),
    enabled: open && query.length > 0,
    staleTime: 10_000,
    placeholderData: (previous) => previous,
  });

  const go = (path: string, params?: Record<string, string>) => {
    setOpen(false);
    setQ('');
    navigate(path, params);
  };
  const pages = useMemo(() => routes.filter((r) => r.nav).map((r) => ({ label: r.nav!.label, path: r.pattern })), []);
  const actions = [
    { label: 'Create an issue', run: () => go('/issues', { create: '1' }) },
    { label: 'New company', run: () => go('/onboarding') },
    { label: 'Change theme', run: () => { setOpen(false); setTheme(nextTheme(theme)); } },
    { label: 'Show keyboard shortcuts', run: () => { setOpen(false); toggleShortcutHelp(); } },
  ];
  const data = query.length > 0 ? results.data : undefined;
  const shownPages = pages.filter((p) => matches(p.label, q));
  const shownActions = actions.filter((a) => matches(a.label, q));

  return (
    <Command.Dialog open={open} onOpenChange={setOpen} label="Command palette" shouldFilter={false} className="palette" overlayClassName="palette-overlay">
      <Command.Input value={q} onValueChange={setQ} placeholder="Search issues, agents, projects, pages…" />
      <Command.List>
        <Command.Empty>{results.isFetching ? 'Searching…' : 'Nothing found. Try other words.'}</Command.Empty>
        {data?.issues.length ? (
          <Command.Group heading="Issues">
            {data.issues.map((issue) => (
              <Command.Item key={issue.id} value={`issue:${issue.id}`} onSelect={() => go(`/issues/${issue.id}`)}>
                <span className="palette-key">{issue.identifier}</span>
                <span className="palette-main">
                  {issue.title}
                  {issue.snippet.length ? (
                    <span className="palette-snippet">
                      {issue.snippet.map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
                    </span>
                  ) : null}
                </span>
                <span className="palette-meta">{issue.status.replace('_', ' ')}</span>
              </Command.Item>
            ))}
          </Command.Group>
        ) : null}
        {data?.agents.length ? (
          <Command.Group heading="Agents">
            {data.agents.map((agent) => (
              <Command.Item key={agent.id} value={`agent:${agent.id}`} onSelect={() => go(`/agents/${agent.id}`)}>
                <span className="palette-main">{agent.name}</span>
                <span className="palette-meta">{agent.role}</span>
              </Command.Item>
            ))}
          </Command.Group>
        ) : null}
        {data?.projects.length ? (
          <Command.Group heading="Projects">
            {data.projects.map((project) => (
              <Command.Item key={project.id} value={`project:${project.id}`} onSelect={() => go('/issues', { project: project.id })}>
                <span className="palette-main">{project.name}</span>
                <span className="palette-meta">project</span>
              </Command.Item>
            ))}
          </Command.Group>
        ) : null}
        {shownPages.length ? <Command.Group heading="Pages">
          {shownPages.map((p) => (
            <Command.Item key={p.path} value={`page:${p.path}`} onSelect={() => go(p.path)}>
              <span className="palette-main">{p.label}</span>
            </Command.Item>
          ))}
        </Command.Group> : null}
        {shownActions.length ? <Command.Group heading="Actions">
          {shownActions.map((a) => (
            <Command.Item key={a.label} value={`action:${a.label}`} onSelect={a.run}>
              <span className="palette-main">{a.label}</span>
            </Command.Item>
          ))}
        </Command.Group> : null}
      </Command.List>
    </Command.Dialog>
  );
}
