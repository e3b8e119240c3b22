import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UI_PARSER_CONTRACT_VERSION } from '@service/adapter-utils';
import { createAgent, createAgentKey, createCompany, type TestCore } from '../../helpers/core.js';
import { builtinUiParser, isCompatible, uiParserResponse } from '../../../main/core/plugins/ui-parser.js';
import { PACKAGE_ROOT } from '../../../main/core/kernel/package-root.js';
import { AMP_FIXTURES, ensureVendorIBuilt, pluginFixture, startPluginCore, VENDOR_I_DIR } from './helpers.js';

let t: TestCore;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'hc-ui-parser-'));
beforeAll(async () => {
  ensureVendorIBuilt();
  t = await startPluginCore();
  for (const localPath of [VENDOR_I_DIR, pluginFixture('echo-plugin'), pluginFixture('parser-v2')]) {
    const res = await t.api('POST', '/api/adapters', { body: { localPath } });
    if (res.status !== 201) throw new Error(res.text);
  }
});
afterAll(async () => {
  await t.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('GET /api/adapters/{type}/ui-parser', () => {
  it("serves a plugin's ./ui-parser export with its contract version; the source runs as a module", async () => {
    const res = await t.api('GET', '/api/adapters/vendor_i_local/ui-parser');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'vendor_i_local', contractVersion: '1.0.0', serverContractVersion: UI_PARSER_CONTRACT_VERSION, compatible: true });
    expect(res.body.source).toBe(readFileSync(path.join(VENDOR_I_DIR, 'dist/ui-parser.js'), 'utf8'));
    // Self-contained: no import statements, so it can be evaluated in a Worker as is.
    expect(res.body.source).not.toMatch(/^\s*import\s/m);
    const mod = await import(`data:text/javascript;base64,${Buffer.from(res.body.source).toString('base64')}`);
    const line = readFileSync(path.join(AMP_FIXTURES, 'success-tool-use.jsonl'), 'utf8').split('\n')[0]!;
    expect(mod.parseStdoutLine(line, 'T')).toEqual([{ kind: 'init', ts: 'T', model: null, sessionId: 'T-5f0c2d1e-7a4b-4c8e-9d3f-2b6a1e0c9f47' }]);
  });

  it('a minor version above ours is compatible; another major falls back to the generic shell parser', async () => {
    const minor = await t.api('GET', '/api/adapters/test_echo/ui-parser');
    expect(minor.body).toMatchObject({ contractVersion: '1.2.0', compatible: true });
    expect(minor.body.source).toContain('parseStdoutLine');
    const major = await t.api('GET', '/api/adapters/test_parser_v2/ui-parser');
    expect(major.status).toBe(200);
    expect(major.body).toEqual({ type: 'test_parser_v2', contractVersion: '2.0.0', serverContractVersion: UI_PARSER_CONTRACT_VERSION, compatible: false, source: null, reason: 'contract_version_mismatch' });
    const installed = (await t.api('GET', '/api/adapters')).body.find((a: any) => a.type === 'test_parser_v2');
    expect(installed.status).toBe('loaded');
  });

  it('built-ins are served from dist/adapters/<folder>/ui-parser.js when built', async () => {
    const res = await t.api('GET', '/api/adapters/process/ui-parser');
    expect(res.status).toBe(200);
    const file = path.join(PACKAGE_ROOT, 'dist/adapters/process/ui-parser.js');
    if (existsSync(file)) expect(res.body).toMatchObject({ compatible: true, contractVersion: UI_PARSER_CONTRACT_VERSION, source: readFileSync(file, 'utf8') });
    else expect(res.body).toMatchObject({ compatible: false, source: null, reason: 'no_ui_parser' });

    // The lookup itself, against a build tree of our own: vendor_x_local lives in vendor-x-local/.
    const root = path.join(scratch, 'root');
    mkdirSync(path.join(root, 'dist/adapters/vendor-x-local'), { recursive: true });
    writeFileSync(path.join(root, 'dist/adapters/vendor-x-local/ui-parser.js'), 'export function parseStdoutLine() { return []; }\n');
    const found = builtinUiParser('vendor_x_local', root);
    expect(uiParserResponse('vendor_x_local', found)).toMatchObject({ compatible: true, contractVersion: UI_PARSER_CONTRACT_VERSION, source: expect.stringContaining('parseStdoutLine') });
    expect(builtinUiParser('vendor_y_local', root)).toEqual({ file: null, contractVersion: null });
  });

  it('versions compare by major; unknown types are 404; agents may read parsers', async () => {
    expect(isCompatible('1.0.0')).toBe(true);
    expect(isCompatible('1.9.3')).toBe(true);
    expect(isCompatible('2.0.0')).toBe(false);
    expect(isCompatible('0.9.0')).toBe(false);
    expect(isCompatible('garbage')).toBe(false);
    expect(isCompatible(null)).toBe(false);
    expect((await t.api('GET', '/api/adapters/no_such_adapter/ui-parser')).status).toBe(404);
    expect((await t.api('GET', '/api/adapters/Not-A-Type/ui-parser')).status).toBe(400);
    const companyId = await createCompany(t);
    const key = await createAgentKey(t, (await createAgent(t, companyId)).id);
    expect((await t.api('GET', '/api/adapters/vendor_i_local/ui-parser', { token: key })).status).toBe(200);
    expect((await t.api('GET', '/api/adapters', { token: key })).status).toBe(200);
    expect((await t.api('GET', '/api/adapters', { token: null })).status).toBe(401);
  });
});
