import pg from 'pg';

/** Creates the database named in the URL when the server has none of that name (first start). */
export async function ensureDatabase(connectionString: string): Promise<boolean> {
  const url = new URL(connectionString);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!name) return false;
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (rowCount) return false;
    await client.query(`create database "${name.replaceAll('"', '""')}"`).catch((error: { code?: string }) => {
      // Another process created it between our look and our create.
      if (error.code !== '42P04') throw error;
    });
    return true;
  } finally {
    await client.end();
  }
}
