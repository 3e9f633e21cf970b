import node from '@sendwell/eslint-config/node';

// Benchmarks are scripts run by hand and by `pnpm test` (smoke mode): each reads its sizes from the
// environment and prints its figures, so process.env and the console are theirs to use.
export default [...node, { ignores: ['results/**'] }, { rules: { 'no-restricted-properties': 'off', 'no-console': 'off' } }];
