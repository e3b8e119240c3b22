import type { Issue, Label } from '../../api/types.js';

/** Label chips in the label's own color (a tinted background keeps the text readable in both themes). */
export function LabelChips({ ids, labels }: { ids: readonly string[] | undefined; labels: readonly Label[] | undefined }) {
  const byId = new Map((labels ?? []).map((l) => [l.id, l]));
  const shown = (ids ?? []).map((id) => byId.get(id)).filter((l): l is Label => Boolean(l));
  if (shown.length === 0) return null;
  return (
    <span className="label-chips">
      {shown.map((l) => (
        <span key={l.id} className="label-chip" style={{ ['--label-color' as string]: l.color }}>
          {l.name}
        </span>
      ))}
    </span>
  );
}

/** "blocked" when the issue waits for blockers that are not done. */
export function BlockedMarker({ issue }: { issue: Issue }) {
  const open = issue.openBlockerIds?.length ?? 0;
  if (open === 0) return null;
  return (
    <span className="blocked-marker" title={`Waits for ${open} unfinished issue${open === 1 ? '' : 's'}`}>
      blocked
    </span>
  );
}
