/**
 * What one scan saw that its stored result does not say: a list of operations on the stored JSON,
 * `[path, value]` to set a value, `[path]` to delete a key, and `[path, '#', runs]` for a text that
 * differs only in its numbers ("slowest in 45 ms" → "slowest in 61 ms" is `[path, '#', ['61']]`).
 * Small when only a timing or a timestamp differs, which is what store-on-change leaves to each scan.
 */
export type PatchPath = Array<string | number>;
export type PatchOp = [path: PatchPath] | [path: PatchPath, value: unknown] | [path: PatchPath, digits: '#', runs: string[]];
export type Patch = PatchOp[];

const DIGIT_RUN = /\d+/g;
const DIGITS = '#';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep equality of JSON values (key order aside). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
  }
  return false;
}

/**
 * The numbers of `actual` when it is `base` with other numbers only (same text around them) and
 * they are shorter to keep than the whole text (`'#',` costs 4 characters more than a set); else null.
 */
function digitRuns(base: string, actual: string): string[] | null {
  const runs = actual.match(DIGIT_RUN);
  if (!runs || base.replace(DIGIT_RUN, DIGITS) !== actual.replace(DIGIT_RUN, DIGITS)) return null;
  return JSON.stringify(runs).length + 4 < JSON.stringify(actual).length ? runs : null;
}

function diffInto(base: unknown, actual: unknown, path: PatchPath, ops: Patch): void {
  if (sameJson(base, actual)) return;
  if (typeof base === 'string' && typeof actual === 'string') {
    const runs = digitRuns(base, actual);
    if (runs) {
      ops.push([path, DIGITS, runs]);
      return;
    }
  }
  if (isObject(base) && isObject(actual)) {
    for (const key of Object.keys(actual)) {
      if (Object.hasOwn(base, key)) diffInto(base[key], actual[key], [...path, key], ops);
      else ops.push([[...path, key], actual[key]]);
    }
    for (const key of Object.keys(base)) if (!Object.hasOwn(actual, key)) ops.push([[...path, key]]);
    return;
  }
  if (Array.isArray(base) && Array.isArray(actual) && base.length === actual.length) {
    base.forEach((item, i) => diffInto(item, actual[i], [...path, i], ops));
    return;
  }
  ops.push([path, actual]);
}

/** The operations that turn `base` into `actual` (both plain JSON), or null when they are equal. */
export function diffJson(base: unknown, actual: unknown): Patch | null {
  const ops: Patch = [];
  diffInto(base, actual, [], ops);
  return ops.length > 0 ? ops : null;
}

/** Sets an own property, whatever its name (`__proto__` included), never the prototype. */
function setOwn(target: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** What a set or numbers operation puts where `current` was. */
function valueOf(op: PatchOp, current: unknown): unknown {
  if (op.length === 3) {
    if (typeof current !== 'string') throw new Error(`patch path ${JSON.stringify(op[0])} names no text`);
    const runs = op[2];
    let i = 0;
    return current.replace(DIGIT_RUN, (run) => runs[i++] ?? run);
  }
  return op.length === 2 ? structuredClone(op[1]) : null;
}

/** `base` with the patch applied; `base` itself is left as it is. */
export function applyPatch<T>(base: T, patch: Patch | null | undefined): T {
  if (!patch || patch.length === 0) return base;
  let result: unknown = structuredClone(base);
  for (const op of patch) {
    const [path] = op;
    if (path.length === 0) {
      result = valueOf(op, result);
      continue;
    }
    let parent: unknown = result;
    for (const key of path.slice(0, -1)) parent = (parent as Record<string | number, unknown> | null)?.[key];
    if (typeof parent !== 'object' || parent === null) throw new Error(`patch path ${JSON.stringify(path)} does not fit the stored result`);
    const last = path[path.length - 1]!;
    if (op.length === 1) delete (parent as Record<string | number, unknown>)[last];
    else setOwn(parent as Record<string, unknown>, last, valueOf(op, (parent as Record<string | number, unknown>)[last]));
  }
  return result as T;
}
