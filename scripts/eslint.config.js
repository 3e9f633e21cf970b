import node from '@sendwell/eslint-config/node';

// The start script is the process supervisor: it reads the environment to pass it down to services.
export default [...node, { files: ['start.ts'], rules: { 'no-restricted-properties': 'off' } }];
