import node from '@sendwell/eslint-config/node';

// validate.ts is a command-line tool: it prints what it found.
export default [...node, { files: ['validate.ts'], rules: { 'no-console': 'off' } }];
