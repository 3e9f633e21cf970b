/**
 * `EXPLAIN (ANALYZE, BUFFERS)` of the statements behind each benchmarked call, captured from the
 * real code that issues them (the domains repositories; the auth plugin's session lookup is
 * rebuilt here as `packages/server-kit/src/auth-plugin.ts` writes it), so a changed query is
 * explained as it now is.
 */
import { HISTORY_DAYS_DEFAULT, HISTORY_DOMAIN_PAGE_DEFAULT, HISTORY_PAGE_DEFAULT } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { CheckRepository } from '../../services/domains/src/results/check.repository.js';
import { DomainRepository } from '../../services/domains/src/domains/domain.repository.js';
import { ScanRepository } from '../../services/domains/src/scans/scan.repository.js';

interface CompiledQueryLike {
  sql: string;
  parameters: readonly unknown[];
  query: unknown;
  queryId: unknown;
}

export interface Plan {
  call: string;
  statement: string;
  lines: string[];
  indexes: string[];
  seqScans: string[];
  executionMs: number;
}

/** Runs `fn` against a database handle that records every statement it compiles. */
async function capture(db: Database, fn: (db: Database) => Promise<unknown>): Promise<CompiledQueryLike[]> {
  const captured: CompiledQueryLike[] = [];
  const capturing = db.withPlugin({
    transformQuery(args) {
      captured.push(db.getExecutor().compileQuery(args.node, args.queryId) as unknown as CompiledQueryLike);
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  await fn(capturing);
  return captured;
}

async function explain(db: Database, call: string, statement: string, query: CompiledQueryLike): Promise<Plan> {
  const result = await db.executeQuery<Record<string, string>>({ ...query, sql: `explain (analyze, buffers) ${query.sql}` } as never);
  const lines = result.rows.map((row) => String(Object.values(row)[0]));
  const indexes = [...new Set(lines.flatMap((l) => [...l.matchAll(/(?:Index|Index Only|Bitmap Index) Scan(?: Backward)? (?:using|on) (\S+)/g)].map((m) => m[1] as string)))];
  const seqScans = [...new Set(lines.flatMap((l) => [...l.matchAll(/Seq Scan on (\S+)/g)].map((m) => m[1] as string)))];
  const executionMs = Number(/Execution Time: ([\d.]+) ms/.exec(lines.join('\n'))?.[1] ?? NaN);
  return { call, statement, lines, indexes, seqScans, executionMs };
}

export async function queryPlans(db: Database, ids: { userId: number; sessionId: string; domainId: number }): Promise<Plan[]> {
  const plans: Plan[] = [];
  const add = async (call: string, statement: string, fn: (db: Database) => Promise<unknown>) => {
    for (const query of await capture(db, fn)) plans.push(await explain(db, call, statement, query));
  };
  // Every authenticated call: the session lookup of the auth plugin (one per request).
  await add('every call', 'auth session lookup', (d) =>
    d
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.userId')
      .selectAll('users')
      .where('sessions.id', '=', ids.sessionId)
      .where('sessions.revokedAt', 'is', null)
      .where('sessions.expires', '>', new Date())
      .executeTakeFirst(),
  );
  await add('GET /api/domains', 'DomainRepository.listActive', (d) => new DomainRepository(d).listActive(ids.userId));
  await add('GET /api/domains/{id}/checks', 'CheckRepository.latestScanOfActiveDomain', (d) => new CheckRepository(d).latestScanOfActiveDomain(ids.userId, ids.domainId));
  // Once per completed scan and process: the checks' DTOs are kept in memory after that.
  const latest = await new CheckRepository(db).latestScanOfActiveDomain(ids.userId, ids.domainId);
  if (latest?.scanId) await add('GET /api/domains/{id}/checks (first time per scan)', 'CheckRepository.forScan', (d) => new CheckRepository(d).forScan(latest.scanId!));
  await add('GET /api/domain-checks/history', 'DomainRepository.listVisible', (d) => new DomainRepository(d).listVisible(ids.userId));
  const visible = await new DomainRepository(db).listVisible(ids.userId);
  const active = visible.filter((v) => !v.isDeleted).map((v) => v.id);
  // The overview (every domain's first page) and one domain's second page of the default sizes.
  const overview = await new ScanRepository(db).historyPage(active, { limit: HISTORY_PAGE_DEFAULT });
  await add('GET /api/domain-checks/history', 'ScanRepository.historyPage (overview)', (d) => new ScanRepository(d).historyPage(active, { limit: HISTORY_PAGE_DEFAULT }));
  await add('GET /api/domain-checks/history', 'ScanRepository.scoresOfScans (overview)', (d) => new ScanRepository(d).scoresOfScans(overview));
  await add('GET /api/domain-checks/history', 'ScanRepository.dnsChangesOfScans (overview)', (d) => new ScanRepository(d).dnsChangesOfScans(overview));
  const first = await new ScanRepository(db).historyPage([ids.domainId], { limit: HISTORY_DOMAIN_PAGE_DEFAULT });
  const last = first.at(HISTORY_DOMAIN_PAGE_DEFAULT - 1) ?? first.at(-1);
  const before = last ? { at: last.cursorAt, id: last.id } : undefined;
  const second = await new ScanRepository(db).historyPage([ids.domainId], { limit: HISTORY_DOMAIN_PAGE_DEFAULT, before });
  await add('GET /api/domain-checks/history?domainId&before', 'ScanRepository.historyPage (domain)', (d) => new ScanRepository(d).historyPage([ids.domainId], { limit: HISTORY_DOMAIN_PAGE_DEFAULT, before }));
  await add('GET /api/domain-checks/history?domainId&before', 'ScanRepository.scoresOfScans (domain)', (d) => new ScanRepository(d).scoresOfScans(second.slice(0, HISTORY_DOMAIN_PAGE_DEFAULT)));
  await add('GET /api/domain-checks/history?domainId&before', 'ScanRepository.dnsChangesOfScans (domain)', (d) => new ScanRepository(d).dnsChangesOfScans(second.slice(0, HISTORY_DOMAIN_PAGE_DEFAULT)));
  const to = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1));
  const from = new Date(to.getTime() - HISTORY_DAYS_DEFAULT * 86_400_000);
  await add('GET /api/domains/{id}/history/days', 'ScanRepository.days', (d) => new ScanRepository(d).days(ids.domainId, from, to, true));
  return plans;
}
