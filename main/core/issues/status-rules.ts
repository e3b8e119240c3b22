import type { IssueStatus } from './schema.js';

export interface StatusChange {
  from: IssueStatus;
  to: IssueStatus;
  actor: 'board' | 'agent';
  /** The calling agent holds the checkout. */
  holdsCheckout: boolean;
  /** Another agent holds the checkout. */
  checkedOutByOther: boolean;
  /** The calling agent is the assignee. */
  isAssignee: boolean;
}

export type StatusVerdict = { ok: true } | { ok: false; status: 403 | 409; code: string; message: string };

const TERMINAL: readonly IssueStatus[] = ['done', 'cancelled'];

/**
 * Who may move an issue where (spec 3.4 plus our decisions, documented in the README):
 * - into `in_progress` only by the agent holding the checkout (the board checks out for an agent);
 * - while another agent holds the checkout, other agents cannot change the status;
 * - reopening a `done` or `cancelled` issue is the board's call;
 * - `cancelled` by the board, the checkout holder, or the assignee of an issue nobody holds.
 * `blocked` is open to the board and to the agent doing the work, and keeps the checkout.
 */
export function checkStatusChange(c: StatusChange): StatusVerdict {
  if (c.from === c.to) return { ok: true };
  if (c.to === 'in_progress' && !(c.actor === 'agent' && c.holdsCheckout)) {
    return { ok: false, status: 409, code: 'checkout_required', message: 'Moving an issue to in_progress needs a checkout: POST /api/issues/{id}/checkout' };
  }
  if (c.actor === 'agent' && c.checkedOutByOther) {
    return { ok: false, status: 409, code: 'checked_out_by_another', message: 'Another agent holds the checkout of this issue; only it or the board can change its status' };
  }
  if (c.actor === 'agent' && TERMINAL.includes(c.from)) {
    return { ok: false, status: 403, code: 'board_only', message: `Only the board may reopen a ${c.from} issue` };
  }
  if (c.to === 'cancelled' && c.actor === 'agent' && !c.holdsCheckout && !(c.isAssignee && !c.checkedOutByOther)) {
    return { ok: false, status: 403, code: 'not_allowed', message: 'Only the board, the checkout holder or the assignee may cancel an issue' };
  }
  return { ok: true };
}

/** Statuses that end a checkout when an issue moves into them; `blocked` keeps it. */
export const RELEASING_STATUSES: readonly IssueStatus[] = ['backlog', 'todo', 'in_review', 'done', 'cancelled'];
