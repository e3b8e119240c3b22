/** Claude Code's stream-json is read by the shared Claude-compatible state (its forks use it too). */
export { ClaudeStreamState, type ClaudeResultEvent } from '@service/adapter-utils';
