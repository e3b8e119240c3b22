import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cruise, type IReporterOutput } from 'dependency-cruiser';

const root = path.resolve(import.meta.dirname, '../../..');
const { forbidden } = createRequire(import.meta.url)(path.join(root, '.dependency-cruiser.cjs')) as { forbidden: unknown[] };

const tree = mkdtempSync(path.join(os.tmpdir(), 'hc-layers-'));
afterAll(() => rmSync(tree, { recursive: true, force: true }));

/** A small house laid out like ours; each test plants one import into it and cruises it with our rules. */
function house(name: string, files: Record<string, string>): string {
  const dir = path.join(tree, name);
  const base: Record<string, string> = {
    'main/core/kernel/actor.ts': 'export type Actor = { kind: "board" };\n',
    'main/core/issues/service.ts': 'import type { Actor } from "../kernel/actor";\nexport const list = (a: Actor) => a;\n',
    'main/core/issues/routes.ts': 'import { list } from "./service";\nexport const routes = list;\n',
    'main/core/services.ts': 'import { list } from "./issues/service";\nexport const services = { list };\n',
    'main/core/http/server.ts': 'import { routes } from "../issues/routes";\nexport const server = routes;\n',
    'adapters/utils/src/index.ts': 'export const run = 1;\n',
    'adapters/vendor-x/index.ts': 'import { run } from "../utils/src/index";\nexport const x = run;\n',
    'renderer/src/page.ts': 'export const page = 1;\n',
    ...files,
  };
  for (const [file, text] of Object.entries(base)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

async function violations(dir: string): Promise<string[]> {
  const result: IReporterOutput = await cruise(['main', 'adapters', 'renderer'], { baseDir: dir, validate: true, ruleSet: { forbidden } as never, tsPreCompilationDeps: true, doNotFollow: { path: 'node_modules' } }, { extensions: ['.ts'] });
  const output = result.output as { summary: { violations: { rule: { name: string } }[] } };
  return output.summary.violations.map((v) => v.rule.name).sort();
}

describe('the layer rules (.dependency-cruiser.cjs, run by npm run lint)', () => {
  it('pass on a house built by the rules', async () => {
    expect(await violations(house('clean', {}))).toEqual([]);
  });

  it('fail on a back-import from the kernel into a domain', async () => {
    const dir = house('kernel-up', { 'main/core/kernel/actor.ts': 'import { list } from "../issues/service";\nexport type Actor = { kind: "board" };\nexport const l = list;\n' });
    expect(await violations(dir)).toContain('kernel-is-the-ground-floor');
  });

  it('fail on a domain importing the server, a route file or the composition', async () => {
    const dir = house('domain-up', {
      'main/core/issues/service.ts': 'import { server } from "../http/server";\nimport { services } from "../services";\nexport const list = (a: unknown) => [a, server, services];\n',
      'main/core/agents/service.ts': 'import { routes } from "../issues/routes";\nexport const a = routes;\n',
    });
    expect(await violations(dir)).toEqual(expect.arrayContaining(['nothing-below-imports-the-server', 'domains-do-not-import-the-composition', 'domains-do-not-import-routes']));
  });

  it('fail on a cycle, an adapter reaching into the core, and the renderer importing a service', async () => {
    const dir = house('across', {
      'main/core/issues/a.ts': 'import { b } from "./b";\nexport const a = () => b;\n',
      'main/core/issues/b.ts': 'import { a } from "./a";\nexport const b = () => a;\n',
      'adapters/vendor-x/index.ts': 'import type { Actor } from "../../main/core/kernel/actor";\nexport type X = Actor;\n',
      'renderer/src/page.ts': 'import { list } from "../../main/core/issues/service";\nexport const page = list;\n',
    });
    expect(await violations(dir)).toEqual(expect.arrayContaining(['no-cycles', 'adapters-stand-on-adapter-utils-only', 'renderer-imports-only-contracts']));
  });
});
