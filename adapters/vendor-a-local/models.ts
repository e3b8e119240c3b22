import type { AdapterModel } from '@service/adapter-utils';

/** `--model` values: the CLI's aliases (follow the newest of a family) and pinned model ids. */
export const CLAUDE_MODELS: AdapterModel[] = [
  { id: 'sonnet', label: 'Sonnet (latest)' },
  { id: 'opus', label: 'Opus (latest)' },
  { id: 'haiku', label: 'Haiku (latest)' },
  { id: 'claude-sonnet-4-5', label: 'Claude Sonnet 4.5' },
  { id: 'claude-opus-4-5', label: 'Claude Opus 4.5' },
  { id: 'claude-opus-4-1', label: 'Claude Opus 4.1' },
  { id: 'claude-haiku-4-5', label: 'Claude Haiku 4.5' },
  { id: 'claude-sonnet-4', label: 'Claude Sonnet 4' },
];
