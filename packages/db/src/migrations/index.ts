import type { Migration } from 'kysely';
import * as initial from './2026-11-21T00-00_initial.js';
import * as domainChecksScanStatus from './2026-11-21T22-45_domain-checks-scan-status.js';
import * as authEpoch from './2026-11-22T00-30_auth-epoch.js';
import * as nightlyCleanUp from './2026-11-23T18-30_nightly-clean-up.js';
import * as scanRecovery from './2026-11-23T19-00_scan-recovery.js';
import * as scanPaused from './2026-11-24T00-00_scan-paused.js';
import * as alertDelivery from './2026-11-24T19-00_alert-delivery.js';
import * as reports from './2026-11-25T00-00_reports.js';
import * as historyCheckTypes from './2026-11-25T02-00_history-check-types.js';
import * as mailCheckTypes from './2026-11-26T14-00_mail-check-types.js';
import * as daneBimiCheckTypes from './2026-11-26T15-00_dane-bimi-check-types.js';
import * as dnssecCheckType from './2026-11-26T16-00_dnssec-check-type.js';
import * as mailFlow from './2026-11-27T00-00_mail-flow.js';
import * as mailTests from './2026-11-27T12-00_mail-tests.js';
import * as senderRequirements from './2026-11-27T18-00_sender-requirements.js';
import * as resultsOnChange from './2026-11-28T00-00_results-on-change.js';
import * as historyPartitions from './2026-11-29T00-00_history-partitions.js';
import * as mailFlowPartitions from './2026-11-30T00-00_mail-flow-partitions.js';

/** Listed explicitly (not read from disk) so migrations run the same from source, a bundle or a container. */
export const migrations: Record<string, Migration> = {
  '2026-11-21T00-00_initial': initial,
  '2026-11-21T22-45_domain-checks-scan-status': domainChecksScanStatus,
  '2026-11-22T00-30_auth-epoch': authEpoch,
  '2026-11-23T18-30_nightly-clean-up': nightlyCleanUp,
  '2026-11-23T19-00_scan-recovery': scanRecovery,
  '2026-11-24T00-00_scan-paused': scanPaused,
  '2026-11-24T19-00_alert-delivery': alertDelivery,
  '2026-11-25T00-00_reports': reports,
  '2026-11-25T02-00_history-check-types': historyCheckTypes,
  '2026-11-26T14-00_mail-check-types': mailCheckTypes,
  '2026-11-26T15-00_dane-bimi-check-types': daneBimiCheckTypes,
  '2026-11-26T16-00_dnssec-check-type': dnssecCheckType,
  '2026-11-27T00-00_mail-flow': mailFlow,
  '2026-11-27T12-00_mail-tests': mailTests,
  '2026-11-27T18-00_sender-requirements': senderRequirements,
  '2026-11-28T00-00_results-on-change': resultsOnChange,
  '2026-11-29T00-00_history-partitions': historyPartitions,
  '2026-11-30T00-00_mail-flow-partitions': mailFlowPartitions,
};
