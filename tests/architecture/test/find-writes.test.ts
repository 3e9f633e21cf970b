import { describe, expect, it } from 'vitest';
import { columnsSet, findWrites, schemaColumns, schemaTables, stripComments } from './find-writes.js';

const tables = new Set(['domains', 'scans', 'domain_alerts']);

describe('findWrites', () => {
  it("sees Kysely's insert, update and delete builders, an alias included, with the statement up to execute", () => {
    const source = [
      "await db.insertInto('scans').values({ domainId }).execute();",
      "await db.updateTable('domainAlerts').set({ isRead: true }).where('id', '=', id).executeTakeFirst();",
      "await db.deleteFrom('domains as d').where('d.id', '=', 1).execute();",
      "await db.selectFrom('domains').selectAll().execute();",
    ].join('\n');
    const writes = findWrites(source, 'f.ts', tables);
    expect(writes.map((w) => [w.table, w.line])).toEqual([
      ['scans', 1],
      ['domain_alerts', 2],
      ['domains', 3],
    ]);
    expect(writes[1]!.statement).toContain('isRead: true');
  });

  it('sees raw SQL writes in any case, and ignores unknown names and comments', () => {
    const source = [
      'await sql`UPDATE domains d SET next_scan_at = null WHERE d.id = ${id}`.execute(db);',
      "// update domains when the plan changes: a comment, not a write",
      '/* delete from scans */',
      'await sql`insert into scans (domain_id) values (${id})`.execute(db);',
      'await sql`update the_unknown set x = 1`.execute(db);',
      "const url = 'https://example.com/update scans'; // a string is not a comment, yet no SQL either",
    ].join('\n');
    expect(findWrites(source, 'f.ts', tables).map((w) => [w.table, w.line])).toEqual([
      ['domains', 1],
      ['scans', 4],
      ['scans', 6],
    ]);
  });

  it('keeps line numbers when comments span lines', () => {
    expect(stripComments('a\n/* one\ntwo */\nb').split('\n')).toHaveLength(4);
  });
});

describe('columnsSet', () => {
  const schema = 'export interface DB {\n  domains: Domains;\n}\nexport interface Domains {\n  id: number;\n  nextScanAt: Date;\n  scanPaused: boolean;\n  userId: number;\n}\n';

  it('reads the tables and their columns from the generated schema', () => {
    expect([...schemaTables(schema)]).toEqual(['domains']);
    expect([...schemaColumns(schema, 'domains')]).toEqual(['id', 'nextScanAt', 'scanPaused', 'userId']);
  });

  it("names the columns a Kysely set or a raw SET assigns, not those of the WHERE", () => {
    const columns = schemaColumns(schema, 'domains');
    const [kysely] = findWrites("db.updateTable('domains').set({ scanPaused: true, other: 1 }).where('userId', '=', 1).execute()", 'f.ts', tables);
    expect(columnsSet(kysely!, columns)).toEqual(['scanPaused']);
    const [raw] = findWrites('sql`update domains set next_scan_at = null where user_id = ${u}`', 'f.ts', tables);
    expect(columnsSet(raw!, columns)).toEqual(['nextScanAt']);
  });
});
