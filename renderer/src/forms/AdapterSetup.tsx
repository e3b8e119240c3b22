import { adapterLabel } from '../app/adapter-label.js';
import { Select } from '../components/Field.js';
import { AdapterConfigFields, TestEnvironment, type AdapterForm, type AdapterInfo } from './adapter-form.js';

/**
 * How an agent runs: the adapter (by product name), its generated configuration form with the raw
 * JSON behind "Advanced", and the environment test. The caller owns the form state
 * (`useAdapterForm`) so it can build the configuration on submit and show the server's problems.
 */
export function AdapterSetup({ companyId, adapters, adapterType, onAdapterType, form }: { companyId: string; adapters: readonly AdapterInfo[]; adapterType: string; onAdapterType?: (type: string) => void; form: AdapterForm }) {
  return (
    <fieldset className="form" style={{ border: 0, padding: 0, margin: 0 }} aria-label="Adapter setup">
      {onAdapterType ? (
        <Select label="Runs with" value={adapterType} onChange={(e) => onAdapterType(e.target.value)} options={adapters.map((a) => ({ value: a.type, label: adapterLabel(a.type, a.label) }))} hint="The coding agent (or command) started at each heartbeat" />
      ) : null}
      <AdapterConfigFields form={form} companyId={companyId} />
      <TestEnvironment companyId={companyId} adapterType={adapterType} form={form} />
    </fieldset>
  );
}
