import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });

async function rulesFor(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((m) => m.ruleId ?? m.message);
}

describe('renderer hook rules (eslint)', () => {
  it('refuses a zustand store read without a selector, and accepts one with', async () => {
    const whole = "import { useUi } from './stores/ui.js';\nexport function A() {\n  const { theme } = useUi();\n  return theme;\n}\n";
    const selected = "import { useUi } from './stores/ui.js';\nexport function A() {\n  return useUi((s) => s.theme);\n}\n";
    expect(await rulesFor('renderer/src/x.tsx', whole)).toContain('no-restricted-syntax');
    expect(await rulesFor('renderer/src/x.tsx', selected)).toEqual([]);
  });

  it('reports hook misuse as errors: a conditional hook and a missing effect dependency', async () => {
    const conditional = "import { useState } from 'react';\nexport function A({ on }: { on: boolean }) {\n  if (on) useState(0);\n  return null;\n}\n";
    const missingDep = "import { useEffect } from 'react';\nexport function A({ id }: { id: string }) {\n  useEffect(() => {\n    document.title = id;\n  }, []);\n  return null;\n}\n";
    const [c] = await eslint.lintText(conditional, { filePath: path.join(root, 'renderer/src/x.tsx') });
    const [m] = await eslint.lintText(missingDep, { filePath: path.join(root, 'renderer/src/x.tsx') });
    expect(c!.messages.filter((x) => x.severity === 2).map((x) => x.ruleId)).toContain('react-hooks/rules-of-hooks');
    expect(m!.messages.filter((x) => x.severity === 2).map((x) => x.ruleId)).toContain('react-hooks/exhaustive-deps');
  });
});
