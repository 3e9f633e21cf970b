import node from '@sendwell/eslint-config/node';

/**
 * Check folders are apart: a file in src/checks/<a>/ may import from its own folder, from
 * src/checks/shared/ (what several checks use) and from the top of src/checks/ (types.ts,
 * outbound-targets.ts …), never from another check's folder src/checks/<b>/. Nor does shared/ import
 * from a check. Relative specifiers are matched, one pattern per folder depth below src/checks/.
 */
const otherCheck = (up) => ({
  regex: `^${'\\.\\./'.repeat(up)}(?!shared/)[\\w-]+/`,
  message: "A check imports another check's modules only through src/checks/shared/ (move what is shared there).",
});

/** scoring/ and alerts/ are pure rules: reads go in repositories/, writes through @sendwell/scan-engine. */
const NO_SQL = 'scoring/ and alerts/ hold no SQL: reads go in src/repositories/, writes through @sendwell/scan-engine.';
const pureRules = {
  files: ['src/scoring/**/*.ts', 'src/alerts/**/*.ts'],
  rules: {
    'no-restricted-imports': ['error', { paths: [{ name: '@sendwell/db', allowTypeImports: true, message: NO_SQL }, { name: 'kysely', message: NO_SQL }] }],
    'no-restricted-syntax': ['error', { selector: "MemberExpression[property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|transaction)$/]", message: NO_SQL }],
  },
};

export default [
  ...node,
  { files: ['src/checks/*/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [otherCheck(1)] }] } },
  { files: ['src/checks/*/*/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [otherCheck(2)] }] } },
  { files: ['src/checks/*/*/*/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [otherCheck(3)] }] } },
  pureRules,
];
