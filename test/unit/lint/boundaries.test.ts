import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });

/** Lints a snippet as if it lived at `file`, returning the rule ids that fired. */
async function rulesFor(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((m) => m.ruleId ?? m.message);
}

describe('architecture boundaries (eslint)', () => {
  it('allows electron only in main/electron and preload', async () => {
    const code = "import { app } from 'electron';\nexport const a = app;\n";
    expect(await rulesFor('main/core/x.ts', code)).toContain('no-restricted-imports');
    expect(await rulesFor('adapters/x.ts', code)).toContain('no-restricted-imports');
    expect(await rulesFor('main/cli/x.ts', code)).toContain('no-restricted-imports');
    expect(await rulesFor('renderer/src/x.ts', code)).toContain('no-restricted-imports');
    expect(await rulesFor('main/electron/x.ts', code)).not.toContain('no-restricted-imports');
    expect(await rulesFor('preload/x.ts', code)).not.toContain('no-restricted-imports');
  });

  it('keeps main/core away from main/electron', async () => {
    const code = "import { x } from '../electron/window.js';\nexport const a = x;\n";
    expect(await rulesFor('main/core/x.ts', code)).toContain('no-restricted-imports');
  });

  it('lets the renderer import only contract files of main/core', async () => {
    const contract = "import { Company } from '../../main/core/companies/contract.js';\nexport const a = Company;\n";
    const service = "import { createCompaniesService } from '../../main/core/companies/service.js';\nexport const a = createCompaniesService;\n";
    expect(await rulesFor('renderer/src/x.ts', contract)).not.toContain('no-restricted-imports');
    expect(await rulesFor('renderer/src/x.ts', service)).toContain('no-restricted-imports');
  });
});
