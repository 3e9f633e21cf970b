import js from '@eslint/js';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

/** Shared rules for every TypeScript package. */
export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/*.gen.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  regexp.configs['flat/recommended'],
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
      // Scanned domains are hostile: a record or reply may be built to make a regular expression
      // backtrack for seconds (issue 24). Every expression must run in linear time, including the
      // ones that search (move) through a long string and the fragments composed into others.
      'regexp/no-super-linear-backtracking': 'error',
      // Sticky expressions are tried at one position only, so they cannot move.
      'regexp/no-super-linear-move': ['error', { ignoreSticky: true, ignorePartial: false }],
      'regexp/no-misleading-capturing-group': 'error',
    },
  },
);
