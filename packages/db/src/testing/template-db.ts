import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateToLatest } from '../migrate.js';
import { migrations } from '../migrations/index.js';

/**
 * Test databases cloned from a migrated template (immich, trigger.dev): migrating once and copying
 * per test file is far faster than migrating per file, and files can run in parallel.
 * The template's name carries a fingerprint of the migrations' code, so a changed migration makes a
 * new template instead of reusing a stale one, and the month it was made in: the migrations create the
 * scan history's partitions from the current month on, and a template from an earlier month would
 * hand out databases whose current month has none.
 */
const fingerprint = createHash('sha256')
  .update(Object.entries(migrations).map(([name, m]) => name + m.up.toString()).join('\n'))
  .digest('hex')
  .slice(0, 12);
export const templateName = `sendwell_tpl_${fingerprint}_${new Date().toISOString().slice(0, 7).replace('-', '')}`;

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function withAdmin<T>(serverUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates the template if it is missing; safe to call from several processes at once. */
export async function ensureTemplate(serverUrl: string): Promise<string> {
  await withAdmin(serverUrl, async (client) => {
    // One creator at a time across every test process on this server.
    await client.query('select pg_advisory_lock(7411)');
    try {
      const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [templateName]);
      if (rowCount) return;
      const building = `${templateName}_building`;
      await client.query(`drop database if exists "${building}"`);
      await client.query(`create database "${building}"`);
      await migrateToLatest(withDatabase(serverUrl, building));
      await client.query(`alter database "${building}" rename to "${templateName}"`);
      await client.query(`alter database "${templateName}" with is_template true allow_connections false`);
    } finally {
      await client.query('select pg_advisory_unlock(7411)');
    }
  });
  return templateName;
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh database for one test file, copied from the template. */
export async function createTestDatabase(serverUrl: string): Promise<TestDatabase> {
  return createDatabase(serverUrl, await ensureTemplate(serverUrl));
}

/** A fresh database with no migration run: for a test of a migration, which runs the ones before it itself. */
export function createEmptyTestDatabase(serverUrl: string): Promise<TestDatabase> {
  return createDatabase(serverUrl, null);
}

async function createDatabase(serverUrl: string, template: string | null): Promise<TestDatabase> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  await withAdmin(serverUrl, async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(template === null ? `create database "${name}"` : `create database "${name}" template "${template}"`);
        return;
      } catch (error) {
        // 55006: the template is briefly busy while another copy starts; wait and retry.
        if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  });
  return {
    name,
    url: withDatabase(serverUrl, name),
    drop: () => withAdmin(serverUrl, async (client) => {
      // Pools closed just before may still be saying goodbye; forcing them off at once makes their
      // clients emit "terminating connection" errors in the test process. Give them a moment first.
      for (let waited = 0; waited < 2_000; waited += 50) {
        const { rows } = await client.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await client.query(`drop database if exists "${name}" with (force)`);
    }),
  };
}
