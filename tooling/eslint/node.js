import globals from 'globals';
import tseslint from 'typescript-eslint';
import base from './base.js';

/**
 * Node services and packages: only an env module may read process.env, so every setting is
 * validated in one place and passed down (STYLE.md habit 3).
 */
export default tseslint.config(...base, {
  languageOptions: { globals: globals.node },
  rules: {
    'no-restricted-properties': [
      'error',
      { object: 'process', property: 'env', message: 'Read settings in src/env.ts and pass them down.' },
    ],
  },
}, {
  files: ['**/env.ts', '**/test/**', '**/*.test.ts', '**/testing/**', '**/vitest.config.ts', '**/scripts/**'],
  rules: { 'no-restricted-properties': 'off', 'no-console': 'off' },
});
