import node from '@sendwell/eslint-config/node';

// The start script is the process supervisor: it reads the environment to pass it down to services
// (and measure-start.ts, which starts them the same way).
export default [...node, { files: ['start.ts', 'measure-start.ts'], rules: { 'no-restricted-properties': 'off' } }];
