import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { useApi } from '../../app/api-context.js';
import { useAction } from '../../api/hooks.js';
import { Loading, ErrorBox, Card } from '../../components/Page.js';
import { Button } from '../../components/Button.js';
import { Input, Select, Textarea } from '../../components/Field.js';
import { BUILTIN_FALLBACK, useAdapters } from '../../forms/adapter-form.js';
import type * as BrandVoice from '../../../../main/core/crm/brand-voice/contract.js';
import { crmBase, crmKey } from './crm-api.js';
import { adapterLabel } from '../../app/adapter-label.js';

type Guide = z.infer<typeof BrandVoice.BrandVoiceGuide>;

const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);
const bound = (text: string) => (text.trim() ? Number(text) : null);
/** A review needs no tools and one turn; the CLI's own defaults are for heartbeats. */
const DEFAULT_CONFIG = '{\n  "allowedTools": [],\n  "maxTurns": 1\n}';

/**
 * The company's brand-voice guide: the rules every draft is checked against (no model needed), and
 * optionally a model-backed review by a logged-in coding CLI the board picks.
 */
export function BrandVoiceTab({ companyId }: { companyId: string }) {
  const api = useApi();
  const guide = useQuery({ queryKey: crmKey(companyId, 'brand-voice-guide'), queryFn: () => api.get<Guide>(`${crmBase(companyId)}/brand-voice/guide`) });
  const adapters = useAdapters();
  const [tone, setTone] = useState('');
  const [banned, setBanned] = useState('');
  const [claims, setClaims] = useState('');
  const [min, setMin] = useState('');
  const [max, setMax] = useState('');
  const [adapterType, setAdapterType] = useState('');
  const [config, setConfig] = useState(DEFAULT_CONFIG);
  const [configError, setConfigError] = useState<string | null>(null);

  // The form shows the saved guide whenever a new one arrives (adjusted during render).
  const [shown, setShown] = useState<Guide | undefined>(undefined);
  const g = guide.data;
  if (g !== shown) {
    setShown(g);
    if (g) {
      setTone(g.toneNotes);
      setBanned(g.bannedPhrases.join('\n'));
      setClaims(g.requiredClaims.join('\n'));
      setMin(g.minLength === null ? '' : String(g.minLength));
      setMax(g.maxLength === null ? '' : String(g.maxLength));
      setAdapterType(g.modelCheck?.adapterType ?? '');
      setConfig(g.modelCheck ? JSON.stringify(g.modelCheck.adapterConfig, null, 2) : DEFAULT_CONFIG);
    }
  }

  const save = useAction((body: Record<string, unknown>) => api.put<Guide>(`${crmBase(companyId)}/brand-voice/guide`, body), {
    success: 'Brand-voice guide saved; earlier verdicts were cleared',
    errorTitle: 'Could not save the guide',
    invalidate: [crmKey(companyId, 'brand-voice-guide')],
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    let adapterConfig: Record<string, unknown> = {};
    if (adapterType) {
      try {
        adapterConfig = JSON.parse(config || '{}') as Record<string, unknown>;
        setConfigError(null);
      } catch {
        setConfigError('Not valid JSON');
        return;
      }
    }
    save.mutate({
      toneNotes: tone,
      bannedPhrases: lines(banned),
      requiredClaims: lines(claims),
      minLength: bound(min),
      maxLength: bound(max),
      modelCheck: adapterType ? { adapterType, adapterConfig } : null,
    });
  };

  if (guide.isPending) return <Loading />;
  if (guide.isError) return <ErrorBox error={guide.error} retry={() => void guide.refetch()} />;
  const types = (adapters.data ?? BUILTIN_FALLBACK).map((a) => ({ value: a.type, label: adapterLabel(a.type, a.label) }));
  return (
    <Card>
      <form className="stack" onSubmit={submit} aria-label="Brand-voice guide">
        <p className="muted" style={{ margin: 0 }}>
          Agents check drafts against this guide before sending. Banned phrases, required claims and length are checked by rules, instantly and for free; a model can also review the tone.
        </p>
        <Textarea label="Tone notes" rows={4} value={tone} onChange={(e) => setTone(e.target.value)} placeholder="Calm, plain, specific. No hype." hint="For people and for the model review." />
        <div className="form-row">
          <Textarea label="Banned phrases" rows={5} value={banned} onChange={(e) => setBanned(e.target.value)} placeholder={'game changer\nrevolutionary'} hint="One per line; matched as whole words, any case." />
          <Textarea label="Required claims" rows={5} value={claims} onChange={(e) => setClaims(e.target.value)} placeholder="SOC 2 certified" hint="One per line; each draft must state every one." />
        </div>
        <div className="form-row">
          <Input label="Minimum length" type="number" min={1} value={min} onChange={(e) => setMin(e.target.value)} placeholder="No minimum" hint="Characters." />
          <Input label="Maximum length" type="number" min={1} value={max} onChange={(e) => setMax(e.target.value)} placeholder="No maximum" hint="Characters." />
        </div>
        <Select
          label="Model review"
          value={adapterType}
          onChange={(e) => setAdapterType(e.target.value)}
          options={[{ value: '', label: 'None: rules only' }, ...types]}
          hint="A logged-in coding CLI on this computer reviews each new draft in print mode (e.g. Claude Code: claude -p)."
        />
        {adapterType ? (
          <Textarea label="Adapter configuration (JSON)" className="input textarea mono" rows={5} value={config} onChange={(e) => setConfig(e.target.value)} error={configError} spellCheck={false} />
        ) : null}
        <div>
          <Button variant="primary" type="submit" busy={save.isPending}>Save guide</Button>
        </div>
      </form>
    </Card>
  );
}
