import MagicString from 'magic-string';
import ts from 'typescript';
import type { Plugin } from 'vite';

/**
 * Marks every call in the top-level declarations of the contracts' modules `/* @__PURE__ *\/`, so a
 * screen that takes a constant or a rule from a module (a message, a plan limit) leaves out the zod
 * schemas declared beside it: a schema is a call, and Rollup keeps a call it cannot prove harmless,
 * and zod's schemas with it (26 KB gzip). The contracts declare schemas and rules only (vite.config's
 * `moduleSideEffects` says so too); the one deliberate side effect, `z.config` in `zod.ts`, is a
 * statement, not a declaration, and stays. Calls inside functions are left alone.
 */
export function pureSchemas(include: RegExp): Plugin {
  return {
    name: 'sendwell:pure-schemas',
    enforce: 'pre',
    transform(code, id) {
      if (!include.test(id) || !id.endsWith('.ts')) return null;
      const source = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
      const starts = new Set<number>();
      const visit = (node: ts.Node): void => {
        if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
        if (ts.isCallExpression(node) || ts.isNewExpression(node)) starts.add(node.getStart(source));
        ts.forEachChild(node, visit);
      };
      for (const statement of source.statements) {
        if (ts.isVariableStatement(statement)) statement.declarationList.declarations.forEach((d) => d.initializer && visit(d.initializer));
      }
      if (starts.size === 0) return null;
      const s = new MagicString(code);
      for (const at of starts) s.appendLeft(at, '/* @__PURE__ */ ');
      return { code: s.toString(), map: s.generateMap({ hires: true, source: id }) };
    },
  };
}
