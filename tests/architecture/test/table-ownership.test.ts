import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { columnsSet, findWrites, productionFiles, readText, schemaColumns, schemaTables, type TableWrite } from './find-writes.js';
import { TABLE_OWNERS } from './table-owners.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const schema = readText(root, 'packages/db/src/schema.gen.ts');
const tables = schemaTables(schema);
const writes: TableWrite[] = productionFiles(root, ['services', 'packages', 'apps', 'scripts']).flatMap((file) => findWrites(readText(root, file), file, tables));
const where = (w: TableWrite) => `${w.file}:${w.line}`;
const writerOf = (table: string, file: string) => Object.keys(TABLE_OWNERS[table]?.writers ?? {}).find((folder) => file.startsWith(folder));

describe('table ownership (docs/architecture.md)', () => {
  it('names the writers of every table in the schema, and no table that is not in it', () => {
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual([...tables].sort());
  });

  it('finds the writes it is meant to police (the scan engine writes scans, domains and domain_alerts)', () => {
    // Guards the detector: if it stopped seeing writes, every other assertion here would pass vacuously.
    const engine = writes.filter((w) => w.file.startsWith('packages/scan-engine/'));
    expect(new Set(engine.map((w) => w.table))).toEqual(new Set(['scans', 'domains', 'check_results', 'dns_snapshots', 'domain_reputation_history', 'scan_days', 'domain_alerts']));
    expect(writes.length).toBeGreaterThan(100);
  });

  it('sees no write of a table outside the folders that may write it', () => {
    const strays = writes.filter((w) => writerOf(w.table, w.file) === undefined).map((w) => `${where(w)} writes ${w.table}`);
    expect(strays).toEqual([]);
  });

  it('sees each limited writer set only its own columns, and nobody else set a reserved column', () => {
    const faults: string[] = [];
    for (const w of writes) {
      const ownership = TABLE_OWNERS[w.table]!;
      const writer = writerOf(w.table, w.file);
      if (!writer) continue;
      const allowed = ownership.writers[writer]!;
      const set = columnsSet(w, schemaColumns(schema, w.table));
      if (allowed !== 'all') for (const c of set) if (!allowed.includes(c)) faults.push(`${where(w)} sets ${w.table}.${c}`);
      const reserved = ownership.reserved;
      if (reserved && reserved.writer !== writer) for (const c of set) if (reserved.columns.includes(c)) faults.push(`${where(w)} sets ${w.table}.${c}, reserved to ${reserved.writer}`);
    }
    expect(faults).toEqual([]);
  });

  it('gives a reason for every table with more than one writer', () => {
    const unexplained = Object.entries(TABLE_OWNERS)
      .filter(([, o]) => Object.keys(o.writers).length > 1 && !o.why)
      .map(([table]) => table);
    expect(unexplained).toEqual([]);
  });
});
