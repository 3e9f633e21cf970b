import type { CheckStatus, CheckType, DnsSnapshot, ReputationFactors } from '@sendwell/contracts';
import type { AlertDecision, OpenAlert, ScanAlert } from '../alerts/alert-types.js';

/** One check's result as a scan found it (the scanner's CheckResult is one). */
export interface RecordedCheck {
  type: CheckType;
  status: CheckStatus;
  value: string | null;
  message: string;
  recommendation: string | null;
  details: object;
}

/** A finished scan as the scanner hands it to the engine. */
export interface ScanOutcomeToRecord {
  /** The domain's overall status after this scan. */
  status: string;
  checks: Partial<Record<CheckType, RecordedCheck>>;
  snapshot: DnsSnapshot;
  score: { score: number; factors: ReputationFactors };
}

/** The previous completed scan's checks, by type, as far as alerts compare them. */
export type PreviousChecks = Partial<Record<CheckType, { status: CheckStatus; details: Record<string, unknown> }>>;

/** What the engine knows, inside the recording transaction, for deciding the scan's alerts. */
export interface RecordContext {
  domain: string;
  plan: string;
  previous: { snapshot: DnsSnapshot | null; checks: PreviousChecks } | null;
  status: { before: string; after: string };
  score: { before: number | null; after: number };
  openAlerts: readonly OpenAlert[];
  now: Date;
}

/** The scanner's alert rules, applied to one recorded scan. */
export type DecideScanAlerts = (context: RecordContext) => AlertDecision<ScanAlert>;

export type RecordResult =
  | { written: true; alertIds: number[]; resolvedAlertIds: number[]; score: number; nextScanAt: Date | null }
  | { written: false; reason: 'missing-scan' | 'already-completed' | 'missing-domain' | 'deleted-domain' };
