import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { stripComments } from './find-writes.js';

/**
 * Import and re-export specifiers of a module, static and dynamic (`import('…')`). Type-only ones
 * (`import type`, `export type`) are left out, as import/no-cycle leaves them: the compiler erases
 * them, so they cannot make one module run before another is initialised.
 */
export function importSpecifiers(source: string): string[] {
  const specs: string[] = [];
  // The keyword, what stands between it and the first quote (never a quote or a semicolon), the specifier;
  // kept when that gap is a module's: nothing (`import './x'`), `(` (dynamic) or ending in `from`.
  for (const m of stripComments(source).matchAll(/\b(?:import|export)\b([^'";]*)['"]([^'"\n]*)['"]/g)) {
    const gap = m[1]!;
    const names = /^\s*$/.test(gap) || /^\s*\(\s*$/.test(gap) || /\bfrom\s*$/.test(gap);
    if (names && !/^\s*type\s/.test(gap)) specs.push(m[2]!);
  }
  return specs;
}

/**
 * The file a specifier names inside the repository, or null for a package or a file that is not
 * TypeScript: `./x.js` is `./x.ts(x)`, a folder is its `index.ts(x)`, `@/` is the web app's `src/`.
 */
export function resolveSpecifier(root: string, fromFile: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith('.')) base = join(dirname(join(root, fromFile)), spec);
  else if (spec.startsWith('@/') && fromFile.startsWith('apps/web/')) base = join(root, 'apps/web/src', spec.slice(2));
  else return null;
  const stem = base.replace(/\.(js|jsx|ts|tsx)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, join(stem, 'index.ts'), join(stem, 'index.tsx')]) {
    if (existsSync(candidate)) return relative(root, candidate);
  }
  return null;
}

/**
 * The import circles among these modules: each strongly connected component of more than one module
 * (or a module importing itself), found with Tarjan's algorithm, iteratively so a deep graph cannot
 * overflow the stack.
 */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++]!;
        if (!graph.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || edges.includes(frame.node)) cycles.push(component.sort());
      }
    }
  }
  return cycles;
}
