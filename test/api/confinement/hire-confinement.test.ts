import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectError, hireBody, startWorld, type World } from '../approvals/helpers.js';

let w: World;
beforeEach(async () => {
  w = await startWorld();
});
afterEach(async () => {
  await w.t.close();
});

const hire = (adapterConfig: Record<string, unknown>, token?: string) =>
  w.t.api('POST', `/api/companies/${w.company}/agent-hires`, { body: { ...hireBody(w), adapterConfig: { command: 'echo', ...adapterConfig } }, ...(token ? { token } : {}) });

describe('only the board loosens an agent\'s confinement', () => {
  it('an agent cannot hire a colleague outside the sandbox or with inherited server variables; the board can', async () => {
    const before = w.t.snapshot();
    expectError(await hire({ sandbox: false }, w.ceoKey), 403, 'board_only');
    expectError(await hire({ inheritEnv: ['AWS_SECRET_ACCESS_KEY'] }, w.ceoKey), 403, 'board_only');
    const { __total_changes: _a, ...rowsBefore } = before;
    const { __total_changes: _b, ...rowsAfter } = w.t.snapshot();
    expect(rowsAfter).toEqual(rowsBefore);
    // The same request is fine when the agent leaves the confinement alone, and from the board.
    expect((await hire({}, w.ceoKey)).status).toBe(201);
    const board = await w.t.api('POST', `/api/companies/${w.company}/agent-hires`, { body: { ...hireBody(w), name: 'Board Pick', requestedByAgentId: w.ceo.id, adapterConfig: { command: 'echo', sandbox: false } } });
    expect(board.status, board.text).toBe(201);
    expect(board.body.agent.adapterConfig).toMatchObject({ sandbox: false });
  });
});
