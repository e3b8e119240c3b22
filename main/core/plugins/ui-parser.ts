import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { UI_PARSER_CONTRACT_VERSION } from '@service/adapter-utils';
import { PACKAGE_ROOT } from '../kernel/package-root.js';
import { resolveExport, type PluginPackageJson } from './install-dir.js';
import type { UiParserResponse } from './contract.js';

/** Where an adapter's UI parser is, and which contract version it declares. */
export interface UiParserLocation {
  file: string | null;
  contractVersion: string | null;
}

const major = (version: string | null): number | null => {
  const m = version ? /^v?(\d+)(\.|$)/.exec(version.trim()) : null;
  return m ? Number(m[1]) : null;
};

/** Same major version as this server's contract (semver: a new major breaks parsers). */
export function isCompatible(contractVersion: string | null): boolean {
  const theirs = major(contractVersion);
  return theirs !== null && theirs === major(UI_PARSER_CONTRACT_VERSION);
}

/**
 * Built-in adapters are compiled with the app: `dist/adapters/<folder>/ui-parser.js`, where the
 * folder is the type key in kebab-case. Their version is the contract the app was built with.
 */
export function builtinUiParser(type: string, root = PACKAGE_ROOT): UiParserLocation {
  const file = path.join(root, 'dist', 'adapters', type.replace(/_/g, '-'), 'ui-parser.js');
  return existsSync(file) ? { file, contractVersion: UI_PARSER_CONTRACT_VERSION } : { file: null, contractVersion: null };
}

/**
 * A plugin's parser is its `./ui-parser` export (browser conditions first: it runs in a Worker);
 * its version is `service.adapterUiParser` in its package.json (spec 2.9).
 */
export function pluginUiParser(pkgDir: string, pkg: PluginPackageJson): UiParserLocation {
  const file = resolveExport(pkgDir, pkg, './ui-parser', ['browser', 'import', 'module']);
  const declared = pkg.service?.adapterUiParser;
  return {
    file: file && existsSync(file) ? file : null,
    contractVersion: typeof declared === 'string' ? declared : null,
  };
}

/**
 * The UI parser answer: the source only when it exists and speaks a compatible contract; otherwise
 * `compatible: false` and the reason, and the renderer uses its generic shell parser.
 */
export function uiParserResponse(type: string, where: UiParserLocation): UiParserResponse {
  const base = { type, contractVersion: where.contractVersion, serverContractVersion: UI_PARSER_CONTRACT_VERSION };
  if (!where.file) return { ...base, compatible: false, source: null, reason: 'no_ui_parser' };
  if (!isCompatible(where.contractVersion)) return { ...base, compatible: false, source: null, reason: 'contract_version_mismatch' };
  return { ...base, compatible: true, source: readFileSync(where.file, 'utf8') };
}
