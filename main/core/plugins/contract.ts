import { z } from 'zod';
import { Timestamp } from '../kernel/common-contract.js';

/** POSIX or Windows absolute path; written out because the renderer imports this file (no node:path). */
const isAbsolutePath = (p: string) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');

/** Adapter type keys, as the registry accepts them (snake_case). */
export const AdapterTypeKey = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'must be a snake_case adapter type key');

export const AdapterTypeParams = z.strictObject({ type: AdapterTypeKey });

/**
 * `POST /api/adapters` (spec 4.3): exactly one of `packageName` (any npm install spec: a registry
 * name with an optional version or range, or a path to a packed `.tgz`) and `localPath` (an absolute
 * directory holding the package, symlinked into the install directory).
 */
export const InstallAdapterBody = z
  .strictObject({
    packageName: z
      .string()
      .trim()
      .min(1)
      .max(1024)
      // Never an option for npm: a spec starting with "-" would be read as a flag.
      .refine((s) => !s.startsWith('-'), 'must be a package name or a tarball path, not an option')
      .optional(),
    localPath: z
      .string()
      .min(1)
      .max(4096)
      .refine(isAbsolutePath, 'must be an absolute path')
      .optional(),
  })
  .superRefine((body, ctx) => {
    const given = [body.packageName, body.localPath].filter((v) => v !== undefined).length;
    if (given !== 1) {
      ctx.addIssue({ code: 'custom', path: ['packageName'], message: 'give exactly one of packageName and localPath' });
    }
  });
export type InstallAdapterInput = z.infer<typeof InstallAdapterBody>;

/** One line of `$SERVICE_HOME/adapter-plugins.json` (spec 2.9). */
export const PluginEntry = z.object({
  packageName: z.string().min(1),
  /** Absolute directory for a local install; null when installed with npm. */
  localPath: z.string().nullable(),
  type: z.string(),
  installedAt: Timestamp,
});
export type PluginEntry = z.infer<typeof PluginEntry>;

export const AdapterModelOut = z.object({ id: z.string(), label: z.string() });

/** What the UI parser route would serve for an adapter. */
export const UiParserInfo = z.object({
  /** Contract version the parser declares; null when the adapter has no UI parser. */
  contractVersion: z.string().nullable(),
  /** Same major version as the renderer's contract: usable. Otherwise the generic shell parser is used. */
  compatible: z.boolean(),
});

/** An entry of `GET /api/adapters`: built-ins, loaded plugins and plugins that failed to load. */
export const AdapterListEntry = z
  .object({
    type: z.string(),
    label: z.string(),
    source: z.enum(['builtin', 'plugin']),
    packageName: z.string().optional(),
    localPath: z.string().optional(),
    installedAt: Timestamp.optional(),
    experimental: z.boolean().optional(),
    status: z.enum(['loaded', 'error']),
    /** Why a plugin is not usable (import failed, createServerAdapter threw, validation failed). */
    error: z.string().optional(),
    models: z.array(AdapterModelOut).optional(),
  })
  .meta({ id: 'AdapterListEntry' });
export type AdapterListEntry = z.infer<typeof AdapterListEntry>;

/** The answer to a successful install. */
export const InstalledAdapter = z
  .object({
    type: z.string(),
    label: z.string(),
    source: z.literal('plugin'),
    packageName: z.string(),
    localPath: z.string().nullable(),
    installedAt: Timestamp,
    experimental: z.boolean().optional(),
    models: z.array(AdapterModelOut),
    agentConfigurationDoc: z.string(),
    uiParser: UiParserInfo,
  })
  .meta({ id: 'InstalledAdapter' });
export type InstalledAdapter = z.infer<typeof InstalledAdapter>;

export const UninstalledAdapter = z.object({ type: z.string(), packageName: z.string(), uninstalled: z.literal(true) });

/**
 * `GET /api/adapters/{type}/ui-parser`. `source` is an ES module whose `parseStdoutLine(line, ts)`
 * the renderer runs in its sandboxed Worker; it is null when `compatible` is false (no parser, or
 * a different major contract version), and the renderer then uses its generic shell parser.
 */
export const UiParserResponse = z
  .object({
    type: z.string(),
    contractVersion: z.string().nullable(),
    /** The contract version of this server (UI_PARSER_CONTRACT_VERSION). */
    serverContractVersion: z.string(),
    compatible: z.boolean(),
    source: z.string().nullable(),
    /** Why there is no usable source: `no_ui_parser` or `contract_version_mismatch`. */
    reason: z.enum(['no_ui_parser', 'contract_version_mismatch']).optional(),
  })
  .meta({ id: 'UiParserResponse' });
export type UiParserResponse = z.infer<typeof UiParserResponse>;
