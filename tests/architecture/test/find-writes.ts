import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One statement in the source that writes a table. */
export interface TableWrite {
  /** As Postgres names it (snake_case). */
  table: string;
  /** Relative to the repository root. */
  file: string;
  line: number;
  /** The statement's text from the write to its `execute` (Kysely) or to the end of the template (SQL). */
  statement: string;
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Comments out, strings kept: a comment saying "update domains" is not a write. Line breaks are kept for line numbers. */
export function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(?<![:'"`\\])\/\/[^\n]*/g, '');
}

const KYSELY = /\b(?:insertInto|updateTable|deleteFrom|mergeInto)\(\s*'([A-Za-z_]+)(?:\s+as\s+\w+)?'\s*\)/g;
const RAW = /\b(?:insert\s+into|update|delete\s+from)\s+([a-z_]+)\b/gi;

/** Every table write in one file's text, Kysely's builders and raw SQL alike. */
export function findWrites(source: string, file: string, tables: ReadonlySet<string>): TableWrite[] {
  const text = stripComments(source);
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  const writes: TableWrite[] = [];
  for (const m of text.matchAll(KYSELY)) {
    const table = snake(m[1]!);
    if (!tables.has(table)) continue;
    const end = text.indexOf('execute', m.index);
    writes.push({ table, file, line: lineOf(m.index), statement: text.slice(m.index, end === -1 ? undefined : end) });
  }
  for (const m of text.matchAll(RAW)) {
    const table = m[1]!.toLowerCase();
    if (!tables.has(table)) continue;
    const end = text.indexOf('`', m.index);
    writes.push({ table, file, line: lineOf(m.index), statement: text.slice(m.index, end === -1 ? undefined : end) });
  }
  return writes;
}

/** The TypeScript files of production code under these folders: no tests, fixtures, migrations or generated code. */
export function productionFiles(root: string, folders: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (['node_modules', 'dist', 'test', 'testing', 'e2e', 'migrations', 'fixtures'].includes(entry.name)) continue;
        walk(path);
      } else if (/\.tsx?$/.test(entry.name) && !/\.(?:test|spec)\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') && entry.name !== 'testing.ts') {
        files.push(relative(root, path));
      }
    }
  };
  for (const folder of folders) walk(join(root, folder));
  return files.sort();
}

const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const pascal = (name: string) => camel(name).replace(/^[a-z]/, (c) => c.toUpperCase());

/** The table's columns (camelCase) from the generated schema's interface for it. */
export function schemaColumns(schemaSource: string, table: string): Set<string> {
  const body = new RegExp(`export interface ${pascal(table)} \\{([\\s\\S]*?)\\n\\}`).exec(schemaSource)?.[1] ?? '';
  return new Set([...body.matchAll(/^[ \t]+(\w+):/gm)].map((m) => m[1]!));
}

/**
 * The columns a write statement sets, among the table's own: object keys in Kysely's `set`/`values`
 * (`column:`), or `column =` between SET and WHERE in raw SQL.
 */
export function columnsSet(write: TableWrite, columns: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  for (const m of write.statement.matchAll(/\b([a-z]\w*)\s*:(?!:)/g)) if (columns.has(m[1]!)) found.add(m[1]!);
  const raw = /\bset\b([\s\S]*?)(?:\bwhere\b|\bfrom\b|\breturning\b|$)/i.exec(write.statement)?.[1] ?? '';
  for (const m of raw.matchAll(/\b([a-z_]+)\s*=/g)) if (columns.has(camel(m[1]!))) found.add(camel(m[1]!));
  return [...found].sort();
}

/** The tables the generated schema declares (`packages/db/src/schema.gen.ts`, interface DB). */
export function schemaTables(schemaSource: string): Set<string> {
  const body = /export interface DB \{([\s\S]*?)\n\}/.exec(schemaSource)?.[1] ?? '';
  return new Set([...body.matchAll(/^[ \t]+(\w+):/gm)].map((m) => snake(m[1]!)));
}

export const readText = (root: string, file: string) => readFileSync(join(root, file), 'utf8');
