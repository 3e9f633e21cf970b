import type { RecordResult, ScanRecorder } from '@sendwell/scan-engine';
import { decideAlerts } from '../alerts/alert-rules.js';
import type { ScanOutcome } from './run-scan.js';

/** Hands a finished scan to the engine, which records it and raises what the scanner's alert rules decide. */
export function recordScan(recorder: ScanRecorder, scanId: string, outcome: ScanOutcome): Promise<RecordResult> {
  return recorder.record(scanId, outcome, (context) => decideAlerts({ ...context, checks: outcome.checks, snapshot: outcome.snapshot }));
}
