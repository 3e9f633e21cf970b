/**
 * Validates the Kubernetes manifests: renders base and the production overlay with kustomize, checks
 * every object against the Kubernetes and KEDA schemas with unknown fields refused, then against
 * Sendwell's rules (lib/policy.ts: probes, settings, secrets, security, KEDA's list key …).
 * Exits 1 naming each problem. `pnpm --filter @sendwell/k8s test` runs it before the tests.
 *   pnpm exec tsx infra/k8s/validate.ts [root ...]
 * root: a folder holding base/ and overlays/production/ (default: this one; the tests pass copies,
 * several at once: the schemas are loaded once per process, the costly part). With more than one
 * root each one's lines follow a `# <root>` line.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { K8sObject } from './lib/objects.js';
import { kustomizeVersion, renderWithKustomize, validateObjects } from './lib/validate.js';

const roots = process.argv.length > 2 ? process.argv.slice(2).map((arg) => resolve(arg)) : [fileURLToPath(new URL('.', import.meta.url))];
const renderer = `kustomize ${kustomizeVersion()}`;

let failed = false;
for (const root of roots) {
  if (roots.length > 1) console.log(`# ${root}`);
  validateRoot(root);
}
if (failed) process.exit(1);

function validateRoot(root: string): void {
  for (const [name, production] of [['base', false], ['overlays/production', true]] as const) {
    let objects: K8sObject[];
    try {
      objects = renderWithKustomize(resolve(root, name));
    } catch (error) {
      const e = error as Error & { stderr?: string };
      console.log(`${name}: ${renderer} could not render it\n  ✗ ${(e.stderr || e.message).trim()}`);
      failed = true;
      continue;
    }
    const problems = validateObjects(objects, { production });
    const kinds = [...new Set(objects.map((o) => o.kind))].join(', ');
    console.log(`${name}: ${objects.length} objects (${kinds}), rendered by ${renderer}: ${problems.length === 0 ? 'valid' : `${problems.length} problems`}`);
    for (const p of problems) console.log(`  ✗ ${p.object}: ${p.message}`);
    if (problems.length > 0) failed = true;
  }
}
