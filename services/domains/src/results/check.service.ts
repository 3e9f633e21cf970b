import {
  features,
  DOMAIN_NOT_FOUND,
  HISTORY_DAYS_DEFAULT,
  HISTORY_DAYS_MAX,
  HISTORY_DOMAIN_PAGE_DEFAULT,
  HISTORY_OVERVIEW_MAX,
  HISTORY_PAGE_DEFAULT,
  HISTORY_PLAN_MESSAGE,
  REPUTATION_HISTORY_LIMIT,
  REPUTATION_PLAN_MESSAGE,
  SCAN_NOT_FOUND,
  scanHistoryStart,
  isCoreCheckType,
  summariseChecks,
  type DnsRecords,
  type DomainCheck,
  type HistoryDaysAnswer,
  type HistoryDaysQuery,
  type HistoryDomain,
  type HistoryQuery,
  type Reputation,
  type ScanDetail,
} from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { badRequest, forbidden, notFound, type AuthUser } from '@sendwell/server-kit';
import { toCheckDtos } from './check.mapper.js';
import { toDnsRecords } from './dns-records.mapper.js';
import { toDomainStatus } from '../domains/domain.mapper.js';
import { toReputationDto } from './reputation.mapper.js';
import { toHistoryDayDto, toHistoryScanDto, toScanDto } from '../scans/scan.mapper.js';
import { decodeHistoryCursor, encodeHistoryCursor, INVALID_CURSOR } from '../scans/history-cursor.js';
import { toIsoOrNull } from '../shared/time.js';
import { CheckRepository } from './check.repository.js';
import { DomainRepository, type DomainRow } from '../domains/domain.repository.js';
import { ReputationRepository } from './reputation.repository.js';
import { ScanRepository, type HistoryScanRow } from '../scans/scan.repository.js';
import type { DomainService } from '../domains/domain.service.js';

/** Enough for the latest scan of every domain that is being looked at, in a few tens of MB at most. */
const CHECKS_BY_SCAN_MAX = 2_000;
const DAY_MS = 86_400_000;

/** The UTC day `days` after `day` (YYYY-MM-DD). */
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** The read side of scans: latest checks, DNS records, reputation, history and one scan's detail. */
export class CheckService {
  /** Checks of completed scans by scan id, oldest first (Map order); about 10 KB each. */
  private readonly checksByScan = new Map<string, DomainCheck[]>();

  constructor(
    private readonly db: Database,
    private readonly domains: DomainService,
  ) {}

  /**
   * The latest completed scan's checks, in card order; [] before the first scan completes.
   * The domain page's hottest call: one small statement (ownership and the latest scan's id), then
   * the checks from memory. A scan's checks are written once, in the scan's transaction, and never
   * updated, so their DTOs are kept by scan id instead of reading and re-parsing each check's
   * details (kilobytes of JSON) on every request.
   */
  async latestChecks(user: AuthUser, id: number): Promise<DomainCheck[]> {
    const repository = new CheckRepository(this.db);
    const latest = await repository.latestScanOfActiveDomain(user.id, id);
    if (!latest) throw notFound(DOMAIN_NOT_FOUND);
    if (latest.scanId === null) return [];
    const known = this.checksByScan.get(latest.scanId);
    if (known) return known;
    const checks = toCheckDtos(await repository.forScan(latest.scanId));
    // The scan is completed, so its checks are all there; a full map drops its oldest entry.
    if (this.checksByScan.size >= CHECKS_BY_SCAN_MAX) this.checksByScan.delete(this.checksByScan.keys().next().value!);
    this.checksByScan.set(latest.scanId, checks);
    return checks;
  }

  async latestChecksByName(user: AuthUser, name: string): Promise<DomainCheck[]> {
    const domain = await this.domains.requireActiveByName(user, name);
    return toCheckDtos(await new CheckRepository(this.db).latestForDomain(domain.id));
  }

  async dnsRecords(user: AuthUser, name: string): Promise<DnsRecords> {
    const domain = await this.domains.requireActiveByName(user, name);
    const scan = await new ScanRepository(this.db).latestCompleted(domain.id);
    const checks = scan ? toCheckDtos(await new CheckRepository(this.db).forScan(scan.id)) : [];
    return toDnsRecords(scan, checks);
  }

  /** Standard and advanced only (the gate comes first, so no plan learns anything from it). */
  async reputation(user: AuthUser, id: number): Promise<Reputation | null> {
    if (!features.reputation(user.planType)) throw forbidden(REPUTATION_PLAN_MESSAGE);
    const domain = await this.domains.requireActive(user, id);
    const row = await new ReputationRepository(this.db).latest(domain.id);
    return row ? toReputationDto(row) : null;
  }

  /** The score-over-time chart: the most recent scores, oldest first; rows the contracts cannot read are skipped. */
  async reputationHistory(user: AuthUser, id: number): Promise<Reputation[]> {
    if (!features.reputation(user.planType)) throw forbidden(REPUTATION_PLAN_MESSAGE);
    const domain = await this.domains.requireActive(user, id);
    const rows = await new ReputationRepository(this.db).recent(domain.id, REPUTATION_HISTORY_LIMIT);
    return rows.map(toReputationDto).filter((r): r is Reputation => r !== null);
  }

  /**
   * The history page (paid plans), one page per domain, newest first. Without `domainId`: every
   * active domain with its newest scans (at most `HISTORY_OVERVIEW_MAX`) and every deletion still
   * restorable. Deleted domains carry no scans: "detailed scan records are not kept for deleted
   * domains" (part 2 §4); the rows stay stored until the purge, so a restore brings them back. With
   * `domainId` (an active domain of the user's, else 404): that domain's page older than `before`.
   * A cursor carries its domain, so `before` alone pages that domain too; a cursor of another domain
   * than `domainId` is refused. Every read is bounded by the page: the scans (limit + 1 per domain),
   * their scores and their DNS changes. Nothing older than the plan's history (`scanHistoryDays`) is
   * shown, whatever is still stored (partitions go when the longest plan's history has passed them).
   */
  async history(user: AuthUser, query: HistoryQuery = {}): Promise<HistoryDomain[]> {
    if (!features.history(user.planType)) throw forbidden(HISTORY_PLAN_MESSAGE);
    const cursor = query.before === undefined ? undefined : decodeHistoryCursor(query.before);
    if (cursor && query.domainId !== undefined && cursor.domainId !== query.domainId) throw badRequest(INVALID_CURSOR);
    const domainId = query.domainId ?? cursor?.domainId;
    const kept = scanHistoryStart(user.planType, new Date());
    const from = query.from === undefined || new Date(query.from) < kept ? kept : new Date(query.from);
    const bounds = { from, to: query.to === undefined ? undefined : new Date(query.to) };
    const showScores = features.reputation(user.planType);
    if (domainId !== undefined) {
      const domain = await this.domains.requireActive(user, domainId);
      const limit = query.limit ?? HISTORY_DOMAIN_PAGE_DEFAULT;
      const rows = await new ScanRepository(this.db).historyPage([domain.id], { ...bounds, limit, before: cursor });
      return this.historyCards([domain], rows, limit, showScores);
    }
    const domains = await new DomainRepository(this.db).listVisible(user.id);
    const limit = Math.min(query.limit ?? HISTORY_PAGE_DEFAULT, HISTORY_OVERVIEW_MAX);
    const active = domains.filter((d) => !d.isDeleted).map((d) => d.id);
    const rows = await new ScanRepository(this.db).historyPage(active, { ...bounds, limit });
    return this.historyCards(domains, rows, limit, showScores);
  }

  /** The cards of these domains from their pages' rows (up to limit + 1 each, newest first): scans, scores, DNS changes, cursor. */
  private async historyCards(domains: DomainRow[], rows: HistoryScanRow[], limit: number, showScores: boolean): Promise<HistoryDomain[]> {
    const byDomain = new Map<number, HistoryScanRow[]>();
    for (const scan of rows) {
      const list = byDomain.get(scan.domainId);
      if (list) list.push(scan);
      else byDomain.set(scan.domainId, [scan]);
    }
    const pages = new Map<number, { scans: HistoryScanRow[]; nextCursor: string | null }>();
    for (const [id, list] of byDomain) {
      const scans = list.slice(0, limit);
      const last = scans.at(-1);
      pages.set(id, { scans, nextCursor: list.length > limit && last ? encodeHistoryCursor({ domainId: id, at: last.cursorAt, id: last.id }) : null });
    }
    const shown = [...pages.values()].flatMap((p) => p.scans);
    const repository = new ScanRepository(this.db);
    const [scores, dnsChanges] = await Promise.all([
      showScores ? repository.scoresOfScans(shown) : new Map<string, number>(),
      repository.dnsChangesOfScans(shown),
    ]);
    return domains.map((d) => {
      const page = d.isDeleted ? undefined : pages.get(d.id);
      return {
        id: d.id,
        name: d.name,
        status: toDomainStatus(d.status),
        scanCount: d.scanCount,
        lastScan: toIsoOrNull(d.lastScan),
        isDeleted: d.isDeleted,
        deletedAt: toIsoOrNull(d.deletedAt),
        scans: (page?.scans ?? []).map((scan) => toHistoryScanDto(scan, scores.get(scan.id) ?? null, dnsChanges.get(scan.id))),
        nextCursor: page?.nextCursor ?? null,
      };
    });
  }

  /**
   * The timeline (paid plans): one point per UTC day of the window with a completed scan, oldest
   * first. The window defaults to the `HISTORY_DAYS_DEFAULT` days up to today and spans at most
   * `HISTORY_DAYS_MAX` (the contract checks both ends when both are given; here the defaults too).
   * Days before the plan's history (`scanHistoryDays`) have no point.
   */
  async historyDays(user: AuthUser, id: number, query: HistoryDaysQuery = {}): Promise<HistoryDaysAnswer> {
    if (!features.history(user.planType)) throw forbidden(HISTORY_PLAN_MESSAGE);
    const to = query.to ?? new Date().toISOString().slice(0, 10);
    const from = query.from ?? addDays(to, -(HISTORY_DAYS_DEFAULT - 1));
    if (from > to) throw badRequest('`from` must not be after `to`');
    if (Date.parse(to) - Date.parse(from) >= HISTORY_DAYS_MAX * DAY_MS) throw badRequest(`The window spans at most ${HISTORY_DAYS_MAX} days`);
    const domain = await this.domains.requireActive(user, id);
    const start = new Date(Math.max(Date.parse(`${from}T00:00:00Z`), scanHistoryStart(user.planType, new Date()).getTime()));
    const rows = await new ScanRepository(this.db).days(domain.id, start, new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS), features.reputation(user.planType));
    return { from, to, days: rows.map(toHistoryDayDto) };
  }

  /**
   * One scan of an active domain of the user's, with its checks and the DNS records it read; anything
   * else is "Scan details not found".
   */
  async scanDetail(user: AuthUser, scanId: string): Promise<ScanDetail> {
    const scans = new ScanRepository(this.db);
    const scan = await scans.findOwned(user.id, scanId);
    if (!scan) throw notFound(SCAN_NOT_FOUND);
    const [rows, dnsSnapshot] = await Promise.all([new CheckRepository(this.db).forScan(scan.id), scans.dnsSnapshot(scan.id)]);
    const checks = toCheckDtos(rows);
    // "n/6 checks passed" is the specification's six, as on the history; the mail checks show on their own.
    const { checkCount, passedCount, health } = summariseChecks(checks.filter((c) => isCoreCheckType(c.type)).map((c) => c.status));
    return {
      scan: toScanDto(scan),
      domain: { id: scan.domainId, name: scan.domainName },
      checks,
      checkCount,
      passedCount,
      health,
      dnsRecords: toDnsRecords({ ...scan, dnsSnapshot }, checks),
    };
  }
}
