/** Wording helpers shared by the evidence rules, so every figure reads the same way. */

export const count = (value: number): string => value.toLocaleString('en-US');

/** A share as a percentage with two decimals: 412/415 → "99.28%". */
export const percent = (part: number, whole: number): string => `${(Math.round((part / whole) * 10_000) / 100).toFixed(2)}%`;

/** "a", "a and b", "a, b and c". */
export function listed(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export const dayOf = (date: Date): string => date.toISOString().slice(0, 10);
