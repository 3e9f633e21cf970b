import type { ScanTrigger } from '@sendwell/contracts';
import type { Database, Executor } from '@sendwell/db';
import type { Logger, Queues, SystemCounters } from '@sendwell/server-kit';
import { alertEventsOf, queueAlertEvents } from './alerts/alert-outbox.js';
import { AlertStore } from './alerts/alert-store.js';
import { queueSenderRequirementsRefresh } from './follow-ups/sender-requirements-refresh.js';
import { HistoryPartitions } from './history/history-partitions.js';
import { ScanRecovery, type ScanRecoveryOptions } from './recovery/scan-recovery.js';
import { ScanRecorder } from './record/scan-recorder.js';
import { ManualScanCooldown } from './requests/manual-request.js';
import { createScan, ScanRequests } from './requests/scan-requests.js';
import { applyPlanSchedule, type PlanSchedule } from './schedule/plan-schedule.js';
import { Sweeper, type SweeperOptions } from './schedule/sweeper.js';

export interface ScanEngineDeps {
  db: Database;
  queues: Queues;
  logger: Logger;
  clock?: () => Date;
  /** The administrator's running figures: `publishAlertEvents` counts the alerts raised (the scanner gives them). */
  counters?: SystemCounters;
}

/** How a manual scan request ended; a queue that refuses is thrown (the cooldown is given back first). */
export type ManualRequestOutcome =
  | { kind: 'queued'; scanId: string; deduplicated: boolean }
  | { kind: 'missing' }
  | { kind: 'paused' }
  | { kind: 'cooling'; retryAfterMs: number };

/**
 * The life of a scan, from request to record, in one place: the only writer of `scans`,
 * `domain_checks`, `domain_reputation_history`, `domain_alerts` and the scheduling columns of
 * `domains`. A small facade over its systems (requests, schedule, recovery, record, alerts), each
 * usable on its own by the code that needs only it (billing applies a plan with `applyPlanSchedule`).
 */
export class ScanEngine {
  readonly requests: ScanRequests;
  readonly recorder: ScanRecorder;

  constructor(private readonly deps: ScanEngineDeps) {
    this.requests = new ScanRequests(deps.queues.scan);
    this.recorder = new ScanRecorder(deps.db, deps.clock);
  }

  /** A new `queued` scan row in the caller's transaction; `enqueue` adds its job after commit. */
  createScan(db: Executor, domainId: number, trigger: ScanTrigger): Promise<string> {
    return createScan(db, domainId, trigger);
  }

  /**
   * Queues the job of an existing `queued` scan row. When the domain already has a scan pending, this
   * row is deleted and the pending scan's id is the answer; when the queue refuses (or does not answer
   * in time), the row is failed with `unqueuedError` and the error thrown.
   */
  async enqueue(scanId: string, domainId: number, trigger: ScanTrigger, unqueuedError: string): Promise<{ scanId: string; deduplicated: boolean }> {
    const { deduplicated } = await this.requests.queue(this.deps.db, [{ scanId, domainId, trigger }], unqueuedError);
    const pending = deduplicated[0]?.pendingScanId;
    if (pending) {
      this.deps.logger.info({ domainId, scanId, pendingScanId: pending }, 'scan already pending: new scan dropped');
      return { scanId: pending, deduplicated: true };
    }
    this.deps.logger.info({ domainId, scanId, trigger }, 'scan queued');
    return { scanId, deduplicated: false };
  }

  /**
   * Scan Now and the blacklist re-check: the cooldown claimed (refused for a missing, paused or cooling
   * domain), a scan row, its job. A queue that refuses gives the claim back and is thrown.
   */
  async requestManual(
    userId: number,
    domainId: number,
    trigger: Extract<ScanTrigger, 'manual' | 'blacklist'>,
    cooldownMs: number,
    unqueuedError: string,
  ): Promise<ManualRequestOutcome> {
    const cooldown = new ManualScanCooldown(this.deps.db);
    const claim = await cooldown.claim(userId, domainId, cooldownMs);
    if (claim.kind !== 'claimed') return claim;
    const scanId = await createScan(this.deps.db, domainId, trigger);
    try {
      return { kind: 'queued', ...(await this.enqueue(scanId, domainId, trigger, unqueuedError)) };
    } catch (err) {
      await cooldown.release(domainId, claim.claimedAt);
      throw err;
    }
  }

  /** The user's domains follow their plan at once (see applyPlanSchedule). */
  applyPlan(db: Executor, userId: number): Promise<PlanSchedule> {
    return applyPlanSchedule(db, userId, this.deps.clock?.());
  }

  sweeper(options: SweeperOptions, onQueued?: (count: number) => void): Sweeper {
    return new Sweeper(this.deps.db, this.deps.queues.scan, options, this.deps.logger.child({ module: 'Sweeper' }), onQueued);
  }

  recovery(options: ScanRecoveryOptions): ScanRecovery {
    return new ScanRecovery(this.deps.db, this.deps.queues.scan, options, this.deps.logger.child({ module: 'ScanRecovery' }));
  }

  /** The scan history's month partitions: created ahead, dropped when past every plan's history. */
  historyPartitions(): HistoryPartitions {
    return new HistoryPartitions(this.deps.db);
  }

  /** `domain_alerts`, in the given transaction or on the pool. */
  alerts(db: Executor = this.deps.db): AlertStore {
    return new AlertStore(db);
  }

  /**
   * Hands committed alert events to the notify fan-out (the notify sweep catches any lost), and counts
   * the alerts raised among the administrator's figures (best effort, never throws). Called once per
   * committed set of alerts, so each raised alert is counted once.
   */
  async publishAlertEvents(raised: readonly number[], resolved: readonly number[], log: Logger = this.deps.logger): Promise<void> {
    await queueAlertEvents(this.deps.queues, alertEventsOf(raised, resolved), log, this.deps.counters);
  }

  /** New evidence for the domain's sender requirements: the intake judges them again. */
  refreshSenderRequirements(domainId: number, log: Logger = this.deps.logger): Promise<void> {
    return queueSenderRequirementsRefresh(this.deps.queues, domainId, log);
  }
}
