import { createHash } from 'node:crypto';

/**
 * Keys whose values vary from scan to scan while the result stays the same: timings (`bannerMs`,
 * `lagMs`), timestamps (`takenAt`, `expiresAt`) and the days left on a certificate. The identity
 * ignores them; the scan's patch keeps them exactly.
 */
const VOLATILE_KEY = /(?:Ms|At)$|^(?:ms|daysRemaining)$/;
/** The top-level texts that quote those timings ("slowest in 45 ms"): their digits are ignored too. */
const TIMED_TEXT = new Set(['value', 'message']);

function project(value: unknown, key: string | undefined, depth: number): unknown {
  if (key !== undefined && VOLATILE_KEY.test(key)) {
    if (typeof value === 'number') return 0;
    if (typeof value === 'string') return '';
  }
  if (depth === 1 && key !== undefined && TIMED_TEXT.has(key) && typeof value === 'string') return value.replace(/\d+/g, '#');
  if (Array.isArray(value)) return value.map((item) => project(item, key, depth + 1));
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, project(v, k, depth + 1)]));
  }
  return value;
}

/**
 * A canonical content hash of a stored result (a check's status, value, message, recommendation and
 * details, or a DNS snapshot) with what varies every scan left out: two results with the same
 * identity are the same result, and the later scan stores only a patch.
 */
export function resultIdentity(content: object): string {
  return createHash('sha256').update(JSON.stringify(project(content, undefined, 0))).digest('base64url');
}
