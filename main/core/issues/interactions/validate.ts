import { and, eq, isNull } from 'drizzle-orm';
import { issueDocumentRevisions, issueDocuments, type IssueRow } from '../schema.js';
import type { AgentRow } from '../../agents/schema.js';
import type { Answers, AskUserQuestionsPayload, ConfirmationTarget, SuggestedTask } from './contract.js';
import { resolveAssignee } from '../references.js';
import { badRequest, conflict, ServiceError } from '../../kernel/errors.js';
import { validationError, type FieldProblem } from '../../kernel/error-contract.js';
import type { Queryable } from '../../context.js';

function invalidTarget(field: string, message: string): ServiceError {
  const path = `body.payload.target.${field}`;
  return badRequest('invalid_target', `${path}: ${message}`, { problems: [{ location: 'body', path, message }] });
}

/**
 * The target must name a live document of this issue and one of its revisions exactly; naming a
 * revision that is no longer current is a conflict (409 stale_target), not a malformed request.
 * Returns the target with `issueId` normalized to the UUID.
 */
export function checkTarget(db: Queryable, issue: IssueRow, target: ConfirmationTarget): ConfirmationTarget {
  if (target.issueId.toLowerCase() !== issue.id && target.issueId.toUpperCase() !== issue.identifier) {
    throw invalidTarget('issueId', 'must be the issue the interaction is posted on');
  }
  const doc = db
    .select()
    .from(issueDocuments)
    .where(and(eq(issueDocuments.id, target.documentId), eq(issueDocuments.issueId, issue.id), isNull(issueDocuments.deletedAt)))
    .get();
  if (!doc) throw invalidTarget('documentId', 'not a document of this issue');
  if (doc.key !== target.key) throw invalidTarget('key', `the document's key is "${doc.key}"`);
  const rev = db
    .select()
    .from(issueDocumentRevisions)
    .where(and(eq(issueDocumentRevisions.id, target.revisionId), eq(issueDocumentRevisions.documentId, doc.id)))
    .get();
  if (!rev) throw invalidTarget('revisionId', 'not a revision of this document');
  if (rev.revisionNumber !== target.revisionNumber) throw invalidTarget('revisionNumber', `revision ${target.revisionId} is number ${rev.revisionNumber}`);
  if (rev.id !== doc.currentRevisionId) {
    throw conflict('stale_target', `Revision ${rev.revisionNumber} of document "${doc.key}" is no longer current; target the current revision`, {
      currentRevisionId: doc.currentRevisionId,
      currentRevisionNumber: doc.revisionNumber,
    });
  }
  return { ...target, issueId: issue.id };
}

/**
 * Assignees follow the issues rule (a living, hired agent of the company). At creation a bad one is
 * a bad request; at accept the agent may have left since, which is a conflict with the proposal.
 */
export function checkTaskAssignees(db: Queryable, companyId: string, tasks: SuggestedTask[], when: 'create' | 'accept'): Map<string, AgentRow> {
  const out = new Map<string, AgentRow>();
  tasks.forEach((task, i) => {
    if (!task.assigneeAgentId) return;
    try {
      out.set(task.clientKey, resolveAssignee(db, companyId, task.assigneeAgentId));
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      const reason = err.message.replace(/^body\.assigneeAgentId: /, '');
      if (when === 'accept') {
        throw conflict('invalid_assignee', `Task "${task.clientKey}" cannot be created: ${reason}`, { clientKey: task.clientKey, assigneeAgentId: task.assigneeAgentId });
      }
      const path = `body.payload.tasks.${i}.assigneeAgentId`;
      throw badRequest('invalid_assignee', `${path}: ${reason}`, { problems: [{ location: 'body', path, message: reason }] });
    }
  });
  return out;
}

/** The tasks named by `selected` (all when omitted), in the order the agent proposed them. */
export function selectTasks(tasks: SuggestedTask[], selected: string[] | undefined): SuggestedTask[] {
  if (selected === undefined) return tasks;
  const known = new Set(tasks.map((t) => t.clientKey));
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  selected.forEach((key, i) => {
    const path = `body.selectedClientKeys.${i}`;
    if (!known.has(key)) problems.push({ location: 'body', path, message: `"${key}" is not a clientKey of this interaction` });
    else if (seen.has(key)) problems.push({ location: 'body', path, message: `duplicate "${key}"` });
    seen.add(key);
  });
  if (problems.length) throw validationError(problems);
  return tasks.filter((t) => seen.has(t.clientKey));
}

/** Every question answered, with option ids of that question; nothing else. */
export function checkAnswers(payload: AskUserQuestionsPayload, answers: Answers): Answers {
  const problems: FieldProblem[] = [];
  const add = (id: string, message: string) => problems.push({ location: 'body', path: `body.answers.${id}`, message });
  const byId = new Map(payload.questions.map((q) => [q.id, q]));
  for (const id of Object.keys(answers)) if (!byId.has(id)) add(id, 'not a question of this interaction');
  for (const q of payload.questions) {
    const answer = Object.hasOwn(answers, q.id) ? answers[q.id] : undefined;
    const options = new Set((q.options ?? []).map((o) => o.id));
    if (answer === undefined) add(q.id, 'required: every question must be answered');
    else if (q.kind === 'text') {
      if (typeof answer !== 'string' || answer.trim() === '') add(q.id, 'must be a non-empty string');
    } else if (q.kind === 'single') {
      if (typeof answer !== 'string' || !options.has(answer)) add(q.id, 'must be one option id of the question');
    } else if (!Array.isArray(answer) || answer.some((a) => !options.has(a)) || new Set(answer).size !== answer.length) {
      add(q.id, 'must be an array of distinct option ids of the question');
    }
  }
  if (problems.length) throw validationError(problems);
  return answers;
}
