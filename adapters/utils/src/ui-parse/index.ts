/**
 * The browser face of @service/adapter-utils: what a built-in UI parser may import. The UI-parser
 * build (bin/build-ui-parsers.mjs) resolves `@service/adapter-utils` to this file, so a parser's
 * bundle holds only these browser-safe pieces and the served file imports nothing.
 */
export * from '../transcript.js';
export * from './kit.js';
export * from './claude.js';
