import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { productionFiles, readText } from './find-writes.js';
import { findCycles, importSpecifiers, resolveSpecifier } from './import-graph.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Every production module of the repository and the modules it imports inside it. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of productionFiles(root, ['services', 'packages', 'apps'])) {
    const targets = importSpecifiers(readText(root, file))
      .map((spec) => resolveSpecifier(root, file, spec))
      .filter((target): target is string => target !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

describe('import circles (the equivalent of import/no-cycle, for the whole repository at once)', () => {
  it('finds none among the production modules', () => {
    const graph = importGraph();
    // Guards the reading itself: a parser that saw no imports would find no circles either.
    expect(graph.size).toBeGreaterThan(800);
    expect([...graph.values()].reduce((sum, targets) => sum + targets.length, 0)).toBeGreaterThan(1500);
    expect(findCycles(graph)).toEqual([]);
  });
});

describe('findCycles', () => {
  it('finds a circle of three, a module importing itself, and nothing in a tree', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
      ['f', ['d']],
    ]);
    expect(findCycles(graph)).toEqual([['a', 'b', 'c'], ['e']]);
  });

  it('walks a chain of 100,000 modules without overflowing the stack', () => {
    const graph = new Map(Array.from({ length: 100_000 }, (_, i) => [`m${i}`, i + 1 < 100_000 ? [`m${i + 1}`] : ['m0']]));
    expect(findCycles(graph)[0]).toHaveLength(100_000);
  });
});

describe('importSpecifiers', () => {
  it('reads static, re-export, side-effect and dynamic imports, not type-only ones or those in comments', () => {
    const source = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "export { c } from './c.js';",
      "export * from './d.js';",
      "import './e.css';",
      "const f = await import('./f.js');",
      "// import { g } from './g.js';",
      "import {\n  h,\n  i,\n} from '@/h';",
      "export function dotted(name: string) { return name.endsWith('.'); }",
    ].join('\n');
    expect(importSpecifiers(source)).toEqual(['./a.js', './c.js', './d.js', './e.css', './f.js', '@/h']);
  });
});
