import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

const electronOnly = {
  name: 'electron',
  message: 'Only main/electron and preload may import electron (DESIGN.md: the core runs under plain Node).',
};

export default tseslint.config(
  { ignores: ['dist/**', 'adapters/*/dist/**', 'node_modules/**', 'coverage/**', 'main/core/db/migrations/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': ['error', { paths: [electronOnly] }],
    },
  },
  {
    // The headless core never reaches into the Electron shell.
    files: ['main/core/**/*.ts', 'adapters/**/*.ts', 'main/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [electronOnly], patterns: [{ group: ['**/electron/**', '**/main/electron/*'], message: 'main/core never imports main/electron.' }] },
      ],
    },
  },
  {
    // The board UI runs in a browser (or the Electron window); its tests and Playwright pages too.
    files: ['renderer/**/*.{ts,tsx}', 'test/unit/renderer/**/*.{ts,tsx}', 'test/e2e/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The board's hooks: the plugin's recommended rules, every one an error (a warning is ignored
    // until it bites, and a missing effect dependency is a stale-data bug).
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...Object.fromEntries(Object.keys(reactHooks.configs.flat.recommended.rules).map((rule) => [rule, 'error'])),
      // A zustand hook without a selector subscribes to the whole store: every toast or live-status
      // change would re-render the caller. Stores are named useUi or use<Name>Store.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.name=/^use(Ui|[A-Z]\\w*Store)$/][arguments.length=0]',
          message: 'Read a zustand store through a selector, e.g. useUi((s) => s.theme), never the whole store.',
        },
      ],
    },
  },
  {
    // The renderer talks to the core over HTTP only; it may import the zod contract files.
    files: ['renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronOnly],
          patterns: [
            {
              regex: '^(\\.\\./)+main/(?!core/([a-z-]+/)+contract(\\.js)?$|core/kernel/(common-contract|events)(\\.js)?$)',
              message: 'The renderer may import only contract files of main/core.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests read loosely typed JSON responses; asserting on `any` is clearer than casting.
    files: ['test/**/*.ts', 'bench/**/*.{ts,mjs}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['main/electron/**/*.ts', 'preload/**/*.{ts,cts}'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // A sandboxed preload is CommonJS and may require only `electron` (hence `import x = require()`).
    files: ['preload/**/*.cts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
