import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentCli } from '../../helpers/agent-clis.js';
import { listPiModels, parsePiModelTable } from '../../../adapters/vendor-f-local/list-models.js';
import { PI_MODELS } from '../../../adapters/vendor-f-local/models.js';

const PI = agentCli('pi');

describe('pi models: what the installed CLI reports, else the maintained list', () => {
  it('lists the models of the providers pi can use (a key in its environment)', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'pi-home-'));
    const models = await listPiModels({ command: PI, env: { HOME: home, ANTHROPIC_API_KEY: 'sk-ant-test' } });
    expect(models.length).toBeGreaterThan(3);
    expect(models.every((m) => m.id.startsWith('anthropic/'))).toBe(true);
    expect(models).not.toEqual(PI_MODELS);
  });

  it('falls back to the maintained list when pi has no provider or is missing', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'pi-home-'));
    expect(await listPiModels({ command: PI, env: { HOME: home } })).toEqual(PI_MODELS);
    expect(await listPiModels({ command: 'no-such-pi-xyz' })).toEqual(PI_MODELS);
  });

  it('reads provider and model from each table row, skipping the header and notes', () => {
    const table = 'provider   model              context  max-out\nanthropic  claude-haiku-4-5   200K     64K\nopenai     gpt-5              400K     128K\nopenai     gpt-5              400K     128K\nNo more.\n';
    expect(parsePiModelTable(table)).toEqual([
      { id: 'anthropic/claude-haiku-4-5', label: 'claude-haiku-4-5 (anthropic)' },
      { id: 'openai/gpt-5', label: 'gpt-5 (openai)' },
    ]);
  });
});
