import { entryFormatter, type CliFormatter } from '@service/adapter-utils';
import { uiParser } from './ui-parser.js';

/** `headcount run watch` for the Gemini CLI: the UI parser's entries, one readable line each. */
export const cliFormatter: CliFormatter = entryFormatter(uiParser);
export const formatLine = cliFormatter.formatLine;
