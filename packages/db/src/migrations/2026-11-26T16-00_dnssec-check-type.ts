import { sql, type Kysely } from 'kysely';

/*
 * One more check per scan: DNSSEC (the chain of trust validated from the root to the domain's zone).
 * Frozen in time: imports no app code, so the list is written out.
 */
const checkTypes = ['spf', 'dkim', 'dmarc', 'blacklist', 'ssl_certificate', 'dns_performance', 'mta_sts', 'tls_rpt', 'smtp', 'reverse_dns', 'dane', 'bimi', 'dnssec'];
const inList = (column: string) => sql.raw(`${column} in (${checkTypes.map((v) => `'${v}'`).join(', ')})`);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['domain_checks', 'sample_domain_checks']) {
    await sql`alter table ${sql.table(table)} drop constraint ${sql.ref(`${table}_type_check`)}`.execute(db);
    await sql`alter table ${sql.table(table)} add constraint ${sql.ref(`${table}_type_check`)} check (${inList('type')})`.execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only.');
}
