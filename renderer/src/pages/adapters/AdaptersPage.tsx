import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { PageProps } from '../../app/page-props.js';
import { useApi } from '../../app/api-context.js';
import { useAction, useAgents } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import type { AdapterListEntry, InstalledAdapter, UiParserResponse } from '../../../../main/core/plugins/contract.js';
import { PageHeader, Loading, ErrorBox, Section } from '../../components/Page.js';
import { Button } from '../../components/Button.js';
import { Dialog } from '../../components/Dialog.js';
import { Input } from '../../components/Field.js';
import { EmptyState } from '../../components/EmptyState.js';
import { Pill } from '../../components/Pill.js';

import { AdapterConfigFields, TestEnvironment, useAdapterForm } from '../../forms/adapter-form.js';
import { useShortcut } from '../../shortcuts/registry.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import './adapters.css';
import { adapterLabel } from '../../app/adapter-label.js';

/**
 * Adapters: the built-ins and installed plugins, with the reason a plugin failed to load; install
 * from a local folder or a package name; uninstall; and an environment test per adapter.
 */
export function AdaptersPage({ companyId }: PageProps) {
  const api = useApi();
  const adapters = useQuery({ queryKey: keys.adapters(), queryFn: () => api.get<AdapterListEntry[]>('/api/adapters') });
  const agents = useAgents(companyId);
  const [installing, setInstalling] = useState(false);
  const [testing, setTesting] = useState<string | null>(null);
  const [removing, setRemoving] = useState<AdapterListEntry | null>(null);
  const uninstall = useAction((type: string) => api.delete(`/api/adapters/${type}`), {
    success: 'Adapter uninstalled',
    errorTitle: 'Could not uninstall',
    invalidate: [keys.adapters()],
    onSuccess: () => setRemoving(null),
  });
  useShortcut('n', 'Install an adapter', () => setInstalling(true), { group: 'Adapters' });
  const usedBy = (type: string) => (agents.data ?? []).filter((a) => a.adapterType === type && a.status !== 'terminated');

  const list = adapters.data ?? [];
  const groups = [
    { title: 'Built in', items: list.filter((a) => a.source === 'builtin') },
    { title: 'Plugins', items: list.filter((a) => a.source === 'plugin') },
  ];
  return (
    <div className="page">
      <PageHeader
        title="Adapters"
        subtitle="How agents run: each adapter drives one kind of agent CLI or service. Plugins add more."
        actions={<Button variant="primary" onClick={() => setInstalling(true)} title="n">Install adapter</Button>}
      />
      {adapters.isPending ? (
        <Loading />
      ) : adapters.isError ? (
        <ErrorBox error={adapters.error} retry={() => void adapters.refetch()} />
      ) : (
        groups.map((g) => (
          <Section key={g.title} title={g.title}>
            {g.items.length === 0 ? (
              <EmptyState title="No plugins installed" action={<Button onClick={() => setInstalling(true)}>Install adapter</Button>}>
                Install an adapter plugin from a folder on this computer or from the package registry.
              </EmptyState>
            ) : (
              <ul className="list adapter-list" aria-label={`${g.title} adapters`}>
                {g.items.map((a) => {
                  const users = usedBy(a.type);
                  return (
                    <li key={a.type} className="adapter-item">
                      <div className="list-item" style={{ borderBottom: 0 }}>
                        <div className="grow">
                          <div className="row">
                            <strong>{adapterLabel(a.type, a.label)}</strong>
                            <Pill tone={a.status === 'loaded' ? 'green' : 'red'}>{a.status === 'loaded' ? 'loaded' : 'load error'}</Pill>
                            {a.experimental ? <Pill tone="amber">experimental</Pill> : null}
                            <ParserBadge type={a.type} />
                          </div>
                          <div className="muted adapter-meta">
                            {a.packageName ? <span className="mono">{a.packageName}</span> : null}
                            {a.localPath ? <span className="mono">{a.localPath}</span> : null}
                            {a.installedAt ? <span>installed <RelativeTime iso={a.installedAt} /></span> : null}
                            {a.models?.length ? <span>{a.models.length} models</span> : null}
                            <span>{users.length ? `used by ${users.map((u) => u.name).join(', ')}` : 'no agent uses it'}</span>
                          </div>
                          {a.error ? <div className="error-box adapter-error" role="alert">{a.error}</div> : null}
                        </div>
                        <div className="row">
                          {a.status === 'loaded' ? (
                            <Button size="sm" aria-expanded={testing === a.type} onClick={() => setTesting(testing === a.type ? null : a.type)} aria-label={`Test environment of ${adapterLabel(a.type, a.label)}`}>
                              {testing === a.type ? 'Close test' : 'Test environment'}
                            </Button>
                          ) : null}
                          {a.source === 'plugin' ? (
                            <Button size="sm" variant="ghost" onClick={() => setRemoving(a)} aria-label={`Uninstall ${adapterLabel(a.type, a.label)}`}>Uninstall</Button>
                          ) : null}
                        </div>
                      </div>
                      {testing === a.type ? <EnvironmentPanel companyId={companyId} adapterType={a.type} /> : null}
                    </li>
                  );
                })}
              </ul>
            )}
          </Section>
        ))
      )}
      {installing ? <InstallDialog onClose={() => setInstalling(false)} /> : null}
      <Dialog
        open={!!removing}
        title="Uninstall adapter"
        onClose={() => setRemoving(null)}
        footer={
          <>
            <Button onClick={() => setRemoving(null)}>Keep it</Button>
            <Button variant="danger" busy={uninstall.isPending} onClick={() => removing && uninstall.mutate(removing.type)}>Uninstall</Button>
          </>
        }
      >
        {removing ? (
          <p>
            Uninstall <strong>{adapterLabel(removing.type, removing.label)}</strong>? {usedBy(removing.type).length ? `${usedBy(removing.type).length} agent(s) use it: they stay, but their runs fail until it is installed again.` : 'No agent uses it.'}
          </p>
        ) : null}
      </Dialog>
    </div>
  );
}

/** Whether the transcript of this adapter's runs is shown parsed or raw. */
function ParserBadge({ type }: { type: string }) {
  const api = useApi();
  const parser = useQuery({ queryKey: ['adapters', type, 'ui-parser'], queryFn: () => api.get<UiParserResponse>(`/api/adapters/${type}/ui-parser`), staleTime: Infinity });
  if (!parser.data) return null;
  if (parser.data.compatible) return <Pill tone="violet">parsed transcript</Pill>;
  return (
    <span title={parser.data.reason === 'contract_version_mismatch' ? `Its transcript parser speaks contract ${parser.data.contractVersion}, this board ${parser.data.serverContractVersion}` : 'It has no transcript parser'}>
      <Pill tone="neutral">raw transcript</Pill>
    </span>
  );
}

function EnvironmentPanel({ companyId, adapterType }: { companyId: string; adapterType: string }) {
  const form = useAdapterForm(adapterType);
  return (
    <div className="adapter-test" role="region" aria-label={`Environment test of ${adapterLabel(adapterType)}`}>
      <p className="muted" style={{ marginTop: 0 }}>Checks run on this computer with the configuration below (the CLI found, its version, the working folder…).</p>
      {form.ready ? <AdapterConfigFields form={form} companyId={companyId} /> : <Loading label="Loading the configuration form" />}
      <TestEnvironment companyId={companyId} adapterType={adapterType} form={form} />
    </div>
  );
}

function InstallDialog({ onClose }: { onClose: () => void }) {
  const api = useApi();
  const [from, setFrom] = useState<'path' | 'package'>('path');
  const [localPath, setLocalPath] = useState('');
  const [packageName, setPackageName] = useState('');
  const install = useAction(() => api.post<InstalledAdapter>('/api/adapters', from === 'path' ? { localPath: localPath.trim() } : { packageName: packageName.trim() }), {
    success: (a) => `${adapterLabel(a.type, a.label)} installed${a.uiParser.compatible ? '' : ' — its transcripts show raw output'}`,
    errorTitle: 'Could not install the adapter',
    invalidate: [keys.adapters()],
    onSuccess: onClose,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    install.mutate(undefined);
  };
  const ready = from === 'path' ? localPath.trim() !== '' : packageName.trim() !== '';
  return (
    <Dialog
      open
      title="Install an adapter"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="install-form" busy={install.isPending} disabled={!ready}>Install</Button>
        </>
      }
    >
      <form id="install-form" className="form" onSubmit={submit}>
        <div className="tabs" role="tablist" aria-label="Install from">
          <button type="button" role="tab" aria-selected={from === 'path'} onClick={() => setFrom('path')}>Local folder</button>
          <button type="button" role="tab" aria-selected={from === 'package'} onClick={() => setFrom('package')}>Package</button>
        </div>
        {from === 'path' ? (
          <Input label="Folder" value={localPath} onChange={(e) => setLocalPath(e.target.value)} placeholder="/home/me/code/my-adapter" hint="An absolute path to the package's folder (its package.json declares the adapter)." autoFocus className="input mono" />
        ) : (
          <Input label="Package name" value={packageName} onChange={(e) => setPackageName(e.target.value)} placeholder="@acme/headcount-adapter@^1" hint="A registry name with an optional version, or a path to a packed .tgz." autoFocus className="input mono" />
        )}
        {install.isPending ? <Loading label="Installing" /> : null}
      </form>
    </Dialog>
  );
}
