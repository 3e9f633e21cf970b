import base from '@sendwell/eslint-config/base';
import reactHooks from 'eslint-plugin-react-hooks';

export default [
  ...base,
  { ignores: ['dist/**', 'e2e/screenshots/**'] },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
];
