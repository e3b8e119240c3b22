import type { Agent } from '../../api/types.js';
import { Input, Select, Textarea } from '../../components/Field.js';

/** Who the agent is and what it may spend: the hire form's part that is not how it runs. */
export interface AgentIdentity {
  name: string;
  role: string;
  title: string;
  reportsTo: string;
  capabilities: string;
  /** Dollars as typed; empty for no limit. */
  budget: string;
}

export const EMPTY_IDENTITY: AgentIdentity = { name: '', role: '', title: '', reportsTo: '', capabilities: '', budget: '' };

export function AgentIdentityFields({ value, onChange, managers, budgetError }: { value: AgentIdentity; onChange: (next: AgentIdentity) => void; managers: readonly Agent[]; budgetError?: string | null }) {
  const set = (patch: Partial<AgentIdentity>) => onChange({ ...value, ...patch });
  return (
    <>
      <div className="form-row">
        <Input label="Name *" value={value.name} onChange={(e) => set({ name: e.target.value })} autoFocus />
        <Input label="Role *" value={value.role} onChange={(e) => set({ role: e.target.value })} placeholder="engineer" hint="A short word: engineer, marketer, researcher" />
      </div>
      <div className="form-row">
        <Input label="Title" value={value.title} onChange={(e) => set({ title: e.target.value })} placeholder="Founding Engineer" />
        <Select
          label="Reports to"
          value={value.reportsTo}
          onChange={(e) => set({ reportsTo: e.target.value })}
          options={[{ value: '', label: 'Nobody (top of the org)' }, ...managers.map((a) => ({ value: a.id, label: `${a.name}${a.title ? ` · ${a.title}` : ''}` }))]}
        />
      </div>
      <Textarea label="Capabilities" rows={2} value={value.capabilities} onChange={(e) => set({ capabilities: e.target.value })} hint="What this agent is good at; other agents read it when delegating." />
      <Input label="Monthly budget (USD)" inputMode="decimal" value={value.budget} onChange={(e) => set({ budget: e.target.value })} placeholder="No limit" error={budgetError ?? null} />
    </>
  );
}
