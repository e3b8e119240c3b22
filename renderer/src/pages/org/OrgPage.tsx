import { useQuery } from '@tanstack/react-query';
import type { PageProps } from '../../app/page-props.js';
import { useApi } from '../../app/api-context.js';
import { keys } from '../../api/keys.js';
import type { OrgNode } from '../../api/types.js';
import { PageHeader, Loading, ErrorBox } from '../../components/Page.js';
import { EmptyState } from '../../components/EmptyState.js';
import { Pill } from '../../components/Pill.js';
import { Button } from '../../components/Button.js';
import { href, navigate } from '../../app/router.js';

function Node({ node }: { node: OrgNode }) {
  return (
    <div className="org-node" role="treeitem" aria-label={`${node.name}, ${node.title || node.role}`} aria-expanded={node.reports.length ? true : undefined} aria-selected={false}>
      <a className="org-card" href={href(`/agents/${node.id}`)}>
        <strong>{node.name}</strong>
        <span className="muted">{node.title || node.role || '—'}</span>
        <Pill status={node.status} />
      </a>
      {node.reports.length ? (
        <div className="org-children" role="group">
          {node.reports.map((r) => (
            <div className="org-child" key={r.id}>
              <Node node={r} />
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}

export function OrgPage({ companyId }: PageProps) {
  const api = useApi();
  const org = useQuery({ queryKey: keys.org(companyId), queryFn: () => api.get<OrgNode[]>(`/api/companies/${companyId}/org`) });
  return (
    <div className="page page-wide">
      <PageHeader title="Org chart" subtitle="Who reports to whom. Click an agent to open it." />
      {org.isPending ? (
        <Loading />
      ) : org.isError ? (
        <ErrorBox error={org.error} retry={() => void org.refetch()} />
      ) : org.data.length === 0 ? (
        <EmptyState title="No agents yet" action={<Button variant="primary" onClick={() => navigate('/agents', { hire: '1' })}>Hire an agent</Button>}>
          Hire a CEO first; the agents they hire report to them.
        </EmptyState>
      ) : (
        <div className="org" role="tree" aria-label="Org chart">
          {org.data.map((root) => (
            <Node key={root.id} node={root} />
          ))}
        </div>
      )}
    </div>
  );
}
