import { compactDiff, type DiffLine } from '../app/config-diff.js';

export function DiffView({ lines, label }: { lines: DiffLine[]; label: string }) {
  const shown = compactDiff(lines);
  if (shown.length === 0) return <div className="faint">No change.</div>;
  return (
    <pre className="diff" aria-label={label}>
      {shown.map((l, i) => (
        <span key={i} className={l.kind === 'add' ? 'diff-add' : l.kind === 'del' ? 'diff-del' : l.kind === 'gap' ? 'faint' : undefined}>
          {l.kind === 'add' ? '+ ' : l.kind === 'del' ? '- ' : '  '}
          {l.text}
        </span>
      ))}
    </pre>
  );
}
