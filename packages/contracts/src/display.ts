/**
 * Display rules a service computes as well as the screens (part 1 §2, part 2 §2 and §4): the domain
 * card's rows and a scan's summary. Statuses are taken as plain strings because old rows and other
 * producers may hold values outside the enums. Screen-only helpers live in apps/web/src/lib/display.ts.
 */

const norm = (status: string | null | undefined) => (status ?? '').trim().toLowerCase();

/** The six rows of a domain card, in order, with their titles (part 1 §2, part 2 §2.9). */
export const checkRows = [
  { type: 'spf', title: 'SPF Record' },
  { type: 'dkim', title: 'DKIM' },
  { type: 'dmarc', title: 'DMARC' },
  { type: 'blacklist', title: 'Blacklists' },
  { type: 'ssl_certificate', title: 'SSL Certificate' },
  { type: 'dns_performance', title: 'DNS Performance' },
] as const;

/** The mail checks of the second depth, shown in their own card after the six (the detail page, a scan, reports). */
export const mailCheckRows = [
  { type: 'smtp', title: 'MX STARTTLS' },
  { type: 'mta_sts', title: 'MTA-STS' },
  { type: 'dane', title: 'DANE' },
  { type: 'tls_rpt', title: 'TLS Reporting' },
  { type: 'reverse_dns', title: 'Reverse DNS' },
  { type: 'dnssec', title: 'DNSSEC' },
  { type: 'bimi', title: 'BIMI' },
] as const;

/** A check counts as passed when valid, passed or clean (part 2 §4). */
function isPassedCheck(status: string | null | undefined): boolean {
  const s = norm(status);
  // The spec names valid, passed and clean; DNS performance reports its best grade as `success`
  // (shown "Excellent"), and a perfect scan must read 6/6, so success passes too.
  return s === 'valid' || s === 'passed' || s === 'clean' || s === 'success';
}

type ScanGroupHealth = 'critical' | 'warning' | 'healthy';
/** Critical if any check is error, failed or flagged; otherwise warning if any is warning; else healthy. */
function scanGroupHealth(statuses: ReadonlyArray<string | null | undefined>): ScanGroupHealth {
  const all = statuses.map(norm);
  if (all.some((s) => s === 'error' || s === 'failed' || s === 'flagged')) return 'critical';
  if (all.some((s) => s === 'warning')) return 'warning';
  return 'healthy';
}

/** What a history row shows of a scan: its health, check count and "n/m checks passed". */
export function summariseChecks(statuses: ReadonlyArray<string | null | undefined>) {
  const passedCount = statuses.filter(isPassedCheck).length;
  return {
    checkCount: statuses.length,
    passedCount,
    health: scanGroupHealth(statuses),
    passedText: `${passedCount}/${statuses.length} checks passed`,
  };
}
