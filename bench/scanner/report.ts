/** Printing helpers shared by the scanner benchmark's processes: every figure beside its target and a verdict. */

export interface Verdict {
  name: string;
  value: number;
  target: number;
  comparison: '>=' | '<' | '<=';
  unit: string;
  pass: boolean;
  /** A miss fails the benchmark (exit code 1), not only the summary line. */
  required?: boolean;
  /** The section was not run (its count set to 0): shown as skipped, never judged. */
  skipped?: boolean;
  /** Why it was skipped, e.g. "BENCH_SOAK_SCANS=0". */
  reason?: string;
}

export function judge(name: string, value: number, target: number, comparison: '>=' | '<' | '<=', unit: string): Verdict {
  const pass = comparison === '>=' ? value >= target : comparison === '<=' ? value <= target : value < target;
  const shown = Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2);
  console.log(`    ${name}: ${shown}${unit}   (target ${comparison} ${target}${unit})   ${pass ? 'PASS' : 'MISS'}`);
  return { name, value, target, comparison, unit, pass };
}

/** A verdict for a section that was not run: printed as skipped, neither a pass nor a miss. */
export function skipped(name: string, reason: string): Verdict {
  return { name, value: Number.NaN, target: Number.NaN, comparison: '>=', unit: '', pass: true, skipped: true, reason };
}

/** Not judged: skipped, or without a value (a section without samples; over IPC a NaN arrives as null). */
export function isSkipped(v: Verdict): boolean {
  return v.skipped === true || typeof v.value !== 'number' || !Number.isFinite(v.value);
}

/** One summary line. */
export function formatVerdict(v: Verdict): string {
  if (isSkipped(v)) return `SKIP  ${v.name}: skipped${v.reason ? ` (${v.reason})` : ''}`;
  return `${v.pass ? 'PASS' : 'MISS'}  ${v.name}: ${v.value.toFixed(2)}${v.unit} (target ${v.comparison} ${v.target}${v.unit})`;
}

/** Status counts per check type, e.g. { dns_performance: { success: 1990, unknown: 10 } }. */
export type StatusCounts = Record<string, Record<string, number>>;

export interface StatusComparison {
  lines: string[];
  /** The largest difference, in percentage points, of one status's share of one check between the runs. */
  maxDeltaPoints: number;
  /** Where it is, e.g. "dns_performance success". */
  worst: string;
}

/**
 * Each check's statuses at two concurrencies side by side, as counts and shares of the scans, with
 * the difference of each share in percentage points: the same domains must get the same verdicts
 * however loaded the scanner is.
 */
export function compareStatuses(a: { concurrency: number; scans: number; statuses: StatusCounts }, b: { concurrency: number; scans: number; statuses: StatusCounts }, limitPoints: number): StatusComparison {
  const share = (n: number, of: number) => (of > 0 ? (n / of) * 100 : 0);
  const cell = (n: number, of: number) => `${String(n).padStart(5)} ${`(${share(n, of).toFixed(1)}%)`.padStart(8)}`;
  const header = `${'check'.padEnd(16)} ${'status'.padEnd(9)} ${`c=${a.concurrency}`.padStart(14)} ${`c=${b.concurrency}`.padStart(14)}  Δ points`;
  const lines = [header];
  let maxDeltaPoints = 0;
  let worst = '';
  const checks = [...new Set([...Object.keys(a.statuses), ...Object.keys(b.statuses)])].sort();
  for (const check of checks) {
    const sa = a.statuses[check] ?? {};
    const sb = b.statuses[check] ?? {};
    const statuses = [...new Set([...Object.keys(sa), ...Object.keys(sb)])].sort();
    for (const [i, status] of statuses.entries()) {
      const na = sa[status] ?? 0;
      const nb = sb[status] ?? 0;
      const delta = share(nb, b.scans) - share(na, a.scans);
      if (Math.abs(delta) > maxDeltaPoints) {
        maxDeltaPoints = Math.abs(delta);
        worst = `${check} ${status}`;
      }
      const flag = Math.abs(delta) > limitPoints ? '  MISS' : '';
      lines.push(`${(i === 0 ? check : '').padEnd(16)} ${status.padEnd(9)} ${cell(na, a.scans)} ${cell(nb, b.scans)}  ${`${delta >= 0 ? '+' : ''}${delta.toFixed(1)}`.padStart(7)}${flag}`);
    }
  }
  return { lines, maxDeltaPoints, worst };
}

/** Nearest-rank percentile of a sorted array. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] as number;
}
