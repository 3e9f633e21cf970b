/** Printing helpers shared by the scanner benchmark's processes: every figure beside its target and a verdict. */

export interface Verdict {
  name: string;
  value: number;
  target: number;
  comparison: '>=' | '<';
  unit: string;
  pass: boolean;
}

export function judge(name: string, value: number, target: number, comparison: '>=' | '<', unit: string): Verdict {
  const pass = comparison === '>=' ? value >= target : value < target;
  const shown = Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2);
  console.log(`    ${name}: ${shown}${unit}   (target ${comparison} ${target}${unit})   ${pass ? 'PASS' : 'MISS'}`);
  return { name, value, target, comparison, unit, pass };
}

/** Nearest-rank percentile of a sorted array. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] as number;
}
