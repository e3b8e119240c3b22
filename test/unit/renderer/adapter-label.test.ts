import { describe, expect, it } from 'vitest';
import { createBuiltinRegistry } from '../../../adapters/registry.js';
import { adapterLabel, isCodingCli } from '../../../renderer/src/app/adapter-label.js';

describe('adapterLabel', () => {
  it('names every built-in type by its product, never by its key', () => {
    const names = Object.fromEntries(createBuiltinRegistry().list().map((a) => [a.type, adapterLabel(a.type, a.label)]));
    expect(names).toEqual({
      process: 'Process',
      http: 'HTTP',
      vendor_a_local: 'Claude Code',
      vendor_b_local: 'Codex',
      vendor_c_local: 'Gemini CLI',
      vendor_d_local: 'OpenCode',
      vendor_e: 'Cursor',
      vendor_f_local: 'Pi',
      vendor_g_local: 'Qwen Code',
      vendor_h_gateway: 'OpenClaw gateway',
    });
  });

  it('shows a plugin by the label it was installed with, else its key; only local agent CLIs are coding CLIs', () => {
    expect(adapterLabel('vendor_i_local', 'Amp (local)')).toBe('Amp (local)');
    expect(adapterLabel('some_plugin')).toBe('some_plugin');
    expect(['process', 'http', 'vendor_h_gateway', 'vendor_a_local', 'vendor_i_local'].filter(isCodingCli)).toEqual(['vendor_a_local', 'vendor_i_local']);
  });
});
