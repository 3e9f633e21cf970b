/**
 * The aggregate reports in what a receiver or a user sent: a raw XML report, a .xml.gz or .zip
 * file, or a whole email with one attached (see containers/unwrap-report-files.ts for the
 * containers and their caps, parse-aggregate-report.ts for the formats). Any document that is not
 * a usable report refuses the whole input: a partial read would silently drop data.
 */
import { unwrapReportFiles } from '../containers/unwrap-report-files.js';
import { REPORT_LIMITS, type ReportLimits } from '../limits.js';
import { parseAggregateReport } from './parse-aggregate-report.js';
import type { AggregateReport } from './types.js';

export function readAggregateReports(input: Uint8Array, contentType?: string, limits: ReportLimits = REPORT_LIMITS): AggregateReport[] {
  const files = unwrapReportFiles(input, contentType, limits);
  return files.map((file) => parseAggregateReport(file.bytes, limits));
}
