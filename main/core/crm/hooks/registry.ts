import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Clock } from '../../kernel/clock.js';
import type { Logger } from '../../kernel/logger.js';
import { ServiceError } from '../../kernel/errors.js';
import { HOOKS_FILE_NAME, parseHooksFile, type HookDefinition, type HookFileProblem } from './config.js';

export interface HookSummary {
  id: string;
  type: HookDefinition['type'];
  enabled: boolean;
  event: HookDefinition['event'];
  match: HookDefinition['match'];
  config: HookDefinition['config'];
}

/** The parsed registry as the reload route and the status route show it. */
export interface HooksRegistryStatus {
  path: string;
  /** What the active configuration came from: the file, no file, or nothing usable at start. */
  source: 'file' | 'missing' | 'invalid_at_start';
  loadedAt: string;
  hooks: HookSummary[];
  enabledCount: number;
  /** The last refused attempt (at start or by reload) while the configuration above stayed active. */
  lastError: { at: string; problems: HookFileProblem[] } | null;
}

type Read = { kind: 'missing' } | { kind: 'problems'; problems: HookFileProblem[] } | { kind: 'ok'; hooks: HookDefinition[] };

const summarize = (h: HookDefinition): HookSummary => ({ id: h.id, type: h.type, enabled: h.enabled, event: h.event, match: h.match, config: h.config });

/**
 * The post-issue hooks in force. Swapped whole on a valid reload (readers see the old or the new
 * list, never a mix); an invalid file changes nothing but `lastError`.
 */
export class HookRegistry {
  readonly file: string;
  private hooks: readonly HookDefinition[] = [];
  private source: HooksRegistryStatus['source'] = 'missing';
  private loadedAt: string;
  private lastError: HooksRegistryStatus['lastError'] = null;

  constructor(
    home: string,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.file = path.join(home, HOOKS_FILE_NAME);
    this.loadedAt = clock.now().toISOString();
  }

  private read(): Read {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
      return { kind: 'problems', problems: [{ path: '$', message: `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})` }] };
    }
    const parsed = parseHooksFile(text);
    return parsed.ok ? { kind: 'ok', hooks: parsed.file.hooks } : { kind: 'problems', problems: parsed.problems };
  }

  private swap(hooks: readonly HookDefinition[], source: HooksRegistryStatus['source']): void {
    this.hooks = hooks;
    this.source = source;
    this.loadedAt = this.clock.now().toISOString();
  }

  /** At start: a missing file is no hooks; an invalid one is no hooks too, said loudly and kept in the status. */
  loadAtStart(): HooksRegistryStatus {
    const r = this.read();
    if (r.kind === 'problems') {
      this.swap([], 'invalid_at_start');
      this.lastError = { at: this.loadedAt, problems: r.problems };
      this.logger.error('post-issue hooks file is invalid: NO hooks are active until it is fixed and reloaded', { file: this.file, problems: r.problems });
    } else {
      this.swap(r.kind === 'ok' ? r.hooks : [], r.kind === 'ok' ? 'file' : 'missing');
      this.lastError = null;
    }
    return this.status();
  }

  /** POST /api/admin/post-issue-hooks/reload: a valid file (or none) replaces the hooks; an invalid one is refused with 422. */
  reload(): HooksRegistryStatus {
    const r = this.read();
    if (r.kind === 'problems') {
      this.lastError = { at: this.clock.now().toISOString(), problems: r.problems };
      this.logger.warn('post-issue hooks reload refused; the previous hooks stay active', { file: this.file, problems: r.problems });
      throw new ServiceError(422, 'invalid_hooks_file', `${HOOKS_FILE_NAME} is invalid (${r.problems[0]!.path}: ${r.problems[0]!.message}); the previous hooks stay active`, {
        problems: r.problems,
        active: this.status(),
      });
    }
    this.swap(r.kind === 'ok' ? r.hooks : [], r.kind === 'ok' ? 'file' : 'missing');
    this.lastError = null;
    this.logger.info('post-issue hooks reloaded', { file: this.file, hooks: this.hooks.length });
    return this.status();
  }

  active(): readonly HookDefinition[] {
    return this.hooks;
  }

  status(): HooksRegistryStatus {
    const hooks = this.hooks.map(summarize);
    return { path: this.file, source: this.source, loadedAt: this.loadedAt, hooks, enabledCount: hooks.filter((h) => h.enabled).length, lastError: this.lastError };
  }
}
