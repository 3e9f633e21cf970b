import {
  features,
  DOMAIN_ADDED_MESSAGE,
  DOMAIN_DETAIL_PLAN_MESSAGE,
  DOMAIN_EXISTS,
  DOMAIN_NOT_FOUND,
  DOMAIN_NOT_RESTORABLE,
  domainRemovedMessage,
  domainRestoredMessage,
  type CreateDomainAnswer,
  type DeletedDomain,
  type Domain,
  type LastScanSummary,
  type Ok,
  type RestoreDomainAnswer,
  type ScanTrigger,
} from '@sendwell/contracts';
import type { Database, Executor } from '@sendwell/db';
import { AppError, conflict, forbidden, notFound, planLimit, type AuthUser, type Logger } from '@sendwell/server-kit';
import { toDeletedDomainDto, toDomainDto, toLastScanSummary } from './domain.mapper.js';
import { DomainRepository, type DomainRow } from './domain.repository.js';
import { ScanRepository } from '../scans/scan.repository.js';
import { UserRepository } from './user.repository.js';
import { addDomainDecision, restoreDecision } from './domain-rules.js';
import type { ScanService } from '../scans/scan.service.js';

export const DOMAIN_ADDED_SCAN_NOT_QUEUED = 'Domain added, but its first scan could not be started. Use Scan Now to run it.';

type Added = { kind: 'added'; row: DomainRow; scanId: string } | { kind: 'restored'; row: DomainRow };

export type ProvisionResult =
  | { outcome: 'added'; domainId: number; scanId: string }
  | { outcome: 'present'; domainId: number; scanId: string | null }
  | { outcome: 'skipped'; reason: 'missing-user' | 'plan-limit' };

/** The domain lifecycle: list, add (or bring back), delete, restore, purge; ownership and plan limits. */
export class DomainService {
  constructor(
    private readonly db: Database,
    private readonly scans: ScanService,
    private readonly logger: Logger,
  ) {}

  async list(user: AuthUser): Promise<Domain[]> {
    return (await new DomainRepository(this.db).listActive(user.id)).map(toDomainDto);
  }

  async listDeleted(user: AuthUser): Promise<DeletedDomain[]> {
    return (await new DomainRepository(this.db).listRestorable(user.id)).map(toDeletedDomainDto);
  }

  /** The user's active domain; another user's, a deleted or a missing one are all 404 alike. */
  async get(user: AuthUser, id: number): Promise<Domain> {
    return toDomainDto(await this.requireActive(user, id));
  }

  async getByName(user: AuthUser, name: string): Promise<Domain> {
    return toDomainDto(await this.requireActiveByName(user, name));
  }

  async requireActive(user: AuthUser, id: number): Promise<DomainRow> {
    const row = await new DomainRepository(this.db).findActive(user.id, id);
    if (!row) throw notFound(DOMAIN_NOT_FOUND);
    return row;
  }

  /** The detail page's reads by name: paid plans only (the gate comes first, so no plan learns anything from it). */
  async requireActiveByName(user: AuthUser, name: string): Promise<DomainRow> {
    if (!features.domainDetail(user.planType)) throw forbidden(DOMAIN_DETAIL_PLAN_MESSAGE);
    const row = await new DomainRepository(this.db).findActiveByName(user.id, name);
    if (!row) throw notFound(DOMAIN_NOT_FOUND);
    return row;
  }

  /**
   * POST /api/domains. A name the user deleted within the restore window comes back with its history
   * (the contracts' `restored: true`, no new scan: a paid plan's scheduler picks it up at once); a new
   * name is added and its first scan queued.
   */
  async create(user: AuthUser, name: string): Promise<CreateDomainAnswer> {
    const added = await this.add(user.id, name, 'manual');
    if (added.kind === 'restored') {
      return { message: domainRestoredMessage(added.row.name), domain: toDomainDto(added.row), scanId: null, restored: true };
    }
    try {
      const queued = await this.scans.enqueue(added.scanId, added.row.id, 'manual');
      return { message: DOMAIN_ADDED_MESSAGE, domain: toDomainDto(added.row), scanId: queued.scanId, restored: false };
    } catch (err) {
      // The domain is added either way; a paid plan's scheduler scans it soon, a free user can press Scan Now.
      this.logger.error({ err, domainId: added.row.id }, 'could not queue the first scan');
      return { message: DOMAIN_ADDED_SCAN_NOT_QUEUED, domain: toDomainDto(added.row), scanId: null, restored: false };
    }
  }

  async remove(user: AuthUser, id: number): Promise<Ok> {
    const row = await new DomainRepository(this.db).softDelete(user.id, id);
    if (!row) throw notFound(DOMAIN_NOT_FOUND);
    // A domain paused above the plan's limit takes the freed place at once.
    await this.scans.engine.applyPlan(this.db, user.id);
    this.logger.info({ domainId: row.id, userId: user.id }, 'domain deleted');
    return { success: true, message: domainRemovedMessage(row.name) };
  }

  /** POST /api/domains/restore: a deletion within 90 days comes back active, history and all. */
  async restore(user: AuthUser, name: string): Promise<RestoreDomainAnswer> {
    const row = await this.db.transaction().execute(async (trx) => {
      const owner = await new UserRepository(trx).lockPlan(user.id);
      const domains = new DomainRepository(trx);
      const existing = await domains.findAnyByName(user.id, name);
      if (existing && !existing.isDeleted) throw conflict(DOMAIN_EXISTS);
      if (!existing?.restorable || !owner) throw notFound(DOMAIN_NOT_RESTORABLE);
      this.checkRestore(owner.planType, (await domains.countTowardLimit(user.id)).active);
      const restored = await domains.restore(user.id, name);
      return restored ? this.scheduled(trx, user.id, restored.id) : undefined;
    });
    if (!row) throw notFound(DOMAIN_NOT_RESTORABLE);
    return { message: domainRestoredMessage(row.name), domain: toDomainDto(row) };
  }

  /** GET /api/domains/{id}/last-scan: active or deleted within the window (part 2 §2.5). */
  async lastScan(user: AuthUser, id: number): Promise<LastScanSummary> {
    const row = await new DomainRepository(this.db).findVisible(user.id, id);
    if (!row) throw notFound(DOMAIN_NOT_FOUND);
    return toLastScanSummary(row);
  }

  /**
   * The `provision-signup-domain` job: a sign-up from the landing page or a quick check gets its
   * domain and first scan. Idempotent: a domain already there gets only a first scan if it has none
   * (a retry after the queue failed), else nothing.
   */
  async provisionSignupDomain(userId: number, name: string): Promise<ProvisionResult> {
    let added: Added;
    try {
      added = await this.add(userId, name, 'signup');
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.code === 'PLAN_LIMIT') return { outcome: 'skipped', reason: 'plan-limit' };
      if (err.code === 'NOT_FOUND') return { outcome: 'skipped', reason: 'missing-user' };
      if (err.code !== 'CONFLICT') throw err;
      const row = await new DomainRepository(this.db).findAnyByName(userId, name);
      if (!row) throw err;
      const scans = new ScanRepository(this.db);
      if (await scans.hasLiveScan(row.id)) return { outcome: 'present', domainId: row.id, scanId: null };
      const scanId = await this.scans.engine.createScan(this.db, row.id, 'signup');
      return { outcome: 'present', domainId: row.id, scanId: await this.queueOrFail(scanId, row.id) };
    }
    if (added.kind === 'restored') return { outcome: 'present', domainId: added.row.id, scanId: null };
    return { outcome: 'added', domainId: added.row.id, scanId: await this.queueOrFail(added.scanId, added.row.id) };
  }

  /** The daily purge: deletions older than the restore window, with everything that hangs off them. */
  async purgeExpired(): Promise<number> {
    const purged = await new DomainRepository(this.db).purgeExpired();
    if (purged > 0) this.logger.info({ purged }, 'expired deleted domains purged');
    return purged;
  }

  /** For the job: a failure to queue (the row failed) is thrown, so BullMQ retries and the retry finds the domain without a live scan. */
  private async queueOrFail(scanId: string, domainId: number): Promise<string> {
    return (await this.scans.enqueue(scanId, domainId, 'signup')).scanId;
  }

  /**
   * Adds a name (or restores its deletion) in one transaction with the owner's row locked, so two
   * racing adds of one user cannot both pass the limit. The new domain's first scan row is created
   * here; its job is queued after commit (a job must never name a row that was rolled back).
   */
  private add(userId: number, name: string, trigger: ScanTrigger): Promise<Added> {
    return this.db.transaction().execute(async (trx): Promise<Added> => {
      const owner = await new UserRepository(trx).lockPlan(userId);
      if (!owner) throw notFound('User not found');
      const domains = new DomainRepository(trx);
      const existing = await domains.findAnyByName(userId, name);
      if (existing && !existing.isDeleted) throw conflict(DOMAIN_EXISTS);
      if (existing?.restorable) {
        this.checkRestore(owner.planType, (await domains.countTowardLimit(userId)).active);
        const row = await domains.restore(userId, name);
        if (row) return { kind: 'restored', row: await this.scheduled(trx, userId, row.id) };
      }
      // A deletion past its window that the nightly purge has not reached: gone now, so the name is new.
      if (existing) await domains.deleteExpired(userId, existing.id);

      const decision = addDomainDecision(owner.planType, (await domains.countTowardLimit(userId)).total);
      if (!decision.allowed) throw planLimit(decision.message, { requiresUpgrade: decision.requiresUpgrade });
      const inserted = await domains.insert({ userId, name });
      const scanId = await this.scans.engine.createScan(trx, inserted.id, trigger);
      const row = await this.scheduled(trx, userId, inserted.id);
      this.logger.info({ domainId: row.id, userId }, 'domain added');
      return { kind: 'added', row, scanId };
    });
  }

  /** The engine schedules the user's domains by their plan; the row as it stands after. */
  private async scheduled(trx: Executor, userId: number, domainId: number): Promise<DomainRow> {
    await this.scans.engine.applyPlan(trx, userId);
    const row = await new DomainRepository(trx).findActive(userId, domainId);
    if (!row) throw new Error(`domain ${domainId} vanished inside its own transaction`);
    return row;
  }

  private checkRestore(plan: string, activeCount: number): void {
    const decision = restoreDecision(plan, activeCount);
    if (!decision.allowed) throw planLimit(decision.message, { requiresUpgrade: decision.requiresUpgrade });
  }
}
