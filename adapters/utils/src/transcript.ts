/**
 * The transcript contracts every adapter speaks (spec 2.9): the UI parser that turns one line of a
 * CLI's output into display entries, and the CLI formatter `headcount run watch` prints with.
 *
 * A UI parser module, as served, is self-contained: no runtime imports, no side effects,
 * deterministic, and it never throws (a line it does not understand becomes a `stdout` entry). The
 * renderer loads parsers in a sandboxed Worker, so they see no DOM and no token. Built-in parsers
 * import the browser-safe helpers of ui-parse/ and the build bundles each into one file.
 */

/** The contract version a parser declares (`service.adapterUiParser` in a plugin's package.json). */
export const UI_PARSER_CONTRACT_VERSION = '1.0.0';

export type TranscriptEntry =
  | { kind: 'init'; ts: string; model: string | null; sessionId: string | null }
  | { kind: 'assistant'; ts: string; text: string }
  | { kind: 'thinking'; ts: string; text: string }
  | { kind: 'user'; ts: string; text: string }
  | { kind: 'tool_call'; ts: string; name: string; input: unknown; id: string | null }
  | { kind: 'tool_result'; ts: string; toolUseId: string | null; content: string; isError: boolean }
  | {
      kind: 'result';
      ts: string;
      text: string;
      isError: boolean;
      /** The CLI's own outcome word (`success`, `error_max_turns`...), when it gives one. */
      subtype: string | null;
      inputTokens: number;
      outputTokens: number;
      cachedTokens: number;
      /** Null when the CLI did not report a cost. */
      costUsd: number | null;
      errors: string[];
    }
  | { kind: 'system'; ts: string; text: string }
  | { kind: 'stderr'; ts: string; text: string }
  | { kind: 'stdout'; ts: string; text: string };

/**
 * What a `ui-parser` module exports. `ts` is the ISO time the line was received; the parser copies it
 * onto the entries it returns.
 */
export interface UiTranscriptParser {
  parseStdoutLine(line: string, ts: string): TranscriptEntry[];
}

/** What a `cli-formatter` module exports: one printable line (or none) per transcript line. */
export interface CliFormatter {
  formatLine(line: string, options: { color: boolean }): string | null;
}
