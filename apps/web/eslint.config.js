import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import base from '@sendwell/eslint-config/base';
import reactHooks from 'eslint-plugin-react-hooks';

/**
 * Feature boundaries (issue 27): a file in `src/features/A` may use another feature B only through
 * B's public entry, `src/features/B/index.ts` (`@/features/B`); anything two features share lives
 * outside `features/` (`components/`, `lib/`, `lib/hooks/`). One override per feature folder, read
 * from the disk, so that a new feature is covered without editing this file.
 */
const features = readdirSync(join(import.meta.dirname, 'src', 'features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const escape = (name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** After `features/B/`: anything but the index itself. */
const PAST_INDEX = '(?!index(?:\\.[jt]sx?)?$)';

function featureBoundary(feature) {
  const others = features.filter((f) => f !== feature).map(escape).join('|');
  // `@/features/B/…`, and relative paths that climb into a sibling folder: `../../B/…`, `../../../features/B/…`.
  const aliased = `^@/features/(?!${escape(feature)}/)[^/]+/${PAST_INDEX}`;
  const relative = `^(?:\\./)?(?:\\.\\./)+(?:features/)?(?:${others})/${PAST_INDEX}`;
  const message = `Import another feature only from its public entry ('@/features/<name>', its index.ts); move what two features share out of features/.`;
  // no-restricted-syntax for `import()`, which no-restricted-imports does not see; esquery's regular
  // expressions may not contain a slash, hence \x2F.
  const slashless = (regex) => regex.replaceAll('/', '\\x2F');
  return {
    files: [`src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: aliased, message }, ...(others ? [{ regex: relative, message }] : [])] }],
      'no-restricted-syntax': [
        'error',
        ...[aliased, ...(others ? [relative] : [])].map((regex) => ({ selector: `ImportExpression > Literal.source[value=/${slashless(regex)}/]`, message })),
      ],
    },
  };
}

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
  ...features.map(featureBoundary),
];
