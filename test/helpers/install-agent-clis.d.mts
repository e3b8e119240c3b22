export interface PinnedCli {
  bin: string;
  package: string;
  version: string;
}
export const pinned: PinnedCli[];
export function cacheRoot(): string;
export function binOf(cli: PinnedCli): string;
export function installAgentClis(): Promise<{ cli: PinnedCli; outcome: 'cached' | 'installed' | 'failed'; error?: string }[]>;
