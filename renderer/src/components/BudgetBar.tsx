import { formatBudget, formatCents, percent } from '../app/format.js';

export type BudgetLevel = 'ok' | 'warning' | 'exceeded' | 'unlimited';

/** Spec 8: a soft alert from 80%, a hard stop at 100%. A budget of 0 means no limit. */
export function budgetLevel(spentCents: number, budgetCents: number): BudgetLevel {
  if (budgetCents <= 0) return 'unlimited';
  const u = spentCents / budgetCents;
  return u >= 1 ? 'exceeded' : u >= 0.8 ? 'warning' : 'ok';
}

/** Width of the fill in percent: the bar shows up to 120% so an overspend is visible past the 100% mark. */
export function fillPercent(spentCents: number, budgetCents: number): number {
  if (budgetCents <= 0) return 0;
  return Math.min(120, (spentCents / budgetCents) * 100) / 1.2;
}

export function BudgetBar({ spentCents, budgetCents, label }: { spentCents: number; budgetCents: number; label: string }) {
  const level = budgetLevel(spentCents, budgetCents);
  const text = `${formatCents(spentCents)} of ${formatBudget(budgetCents)}`;
  if (level === 'unlimited') {
    return (
      <div className="stack-sm">
        <div className="row"><span className="grow ellipsis">{label}</span><span className="muted">{formatCents(spentCents)} · no limit</span></div>
      </div>
    );
  }
  const pct = Math.round((spentCents / budgetCents) * 100);
  return (
    <div className="stack-sm budget">
      <div className="row">
        <span className="grow ellipsis">{label}</span>
        <span className="muted">{text} · {percent(spentCents / budgetCents)}</span>
      </div>
      <div className="budget-bar" role="meter" aria-label={`${label} budget`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.min(pct, 100)} aria-valuetext={`${text}, ${percent(spentCents / budgetCents)}`}>
        <div className="budget-fill" data-level={level} style={{ width: `${fillPercent(spentCents, budgetCents)}%` }} />
        <div className="budget-mark" style={{ left: `${80 / 1.2}%` }} title="80%: soft alert"><span aria-hidden="true">80%</span></div>
        <div className="budget-mark" style={{ left: `${100 / 1.2}%` }} title="100%: agents paused"><span aria-hidden="true">100%</span></div>
      </div>
    </div>
  );
}
