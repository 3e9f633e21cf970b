import { seededRandom } from '@sendwell/testing';
import { describe, expect, it } from 'vitest';
import { resultIdentity } from '../src/results/result-identity.js';
import { applyPatch, diffJson, sameJson, type Patch } from '../src/results/result-patch.js';
import { canonicalJson } from './canonical-json.js';

/** diffJson then applyPatch must rebuild `actual` exactly, and leave `base` as it was. */
function roundTrip(base: unknown, actual: unknown): Patch | null {
  const before = structuredClone(base);
  const patch = diffJson(base, actual);
  const rebuilt = applyPatch(base, patch);
  expect(rebuilt).toStrictEqual(actual);
  expect(base).toStrictEqual(before);
  return patch;
}

describe('sameJson', () => {
  it('compares by value, key order aside, and tells arrays, objects, null and primitives apart', () => {
    expect(sameJson({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJson({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(sameJson({ a: undefined }, { b: undefined })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson([1], [1, 1])).toBe(false);
    expect(sameJson([], {})).toBe(false);
    expect(sameJson({}, [])).toBe(false);
    expect(sameJson(null, {})).toBe(false);
    expect(sameJson({}, null)).toBe(false);
    expect(sameJson('1', 1)).toBe(false);
    expect(sameJson(0, false)).toBe(false);
  });
});

describe('diffJson / applyPatch', () => {
  it('gives null for equal values (key order aside) and applying null or [] returns the base', () => {
    expect(diffJson({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBeNull();
    expect(diffJson(null, null)).toBeNull();
    expect(diffJson('x', 'x')).toBeNull();
    const base = { a: 1 };
    expect(applyPatch(base, null)).toBe(base);
    expect(applyPatch(base, undefined)).toBe(base);
    expect(applyPatch(base, [])).toBe(base);
  });

  it('patches only the changed leaf of a nested object', () => {
    const base = { status: 'valid', details: { hosts: [{ exchange: 'mx1', bannerMs: 40, starttls: true }], lookups: 3 } };
    const actual = { status: 'valid', details: { hosts: [{ exchange: 'mx1', bannerMs: 75, starttls: true }], lookups: 3 } };
    expect(roundTrip(base, actual)).toEqual([[['details', 'hosts', 0, 'bannerMs'], 75]]);
  });

  it('keeps only the numbers of a text that differs in its numbers alone, and the whole text otherwise', () => {
    const base = { value: '45 ms', message: 'Excellent: 2 name servers answered, slowest in 45 ms.', note: 'expires 2026-12-01', at: '2026-12-01T00:15:00.000Z' };
    const actual = { value: '61 ms', message: 'Excellent: 2 name servers answered, slowest in 061 ms.', note: 'expires soon', at: '2026-12-01T00:30:00.000Z' };
    const patch = roundTrip(base, actual)!;
    expect(patch).toEqual([
      // Shorter whole: a short value, and a timestamp that is mostly digits.
      [['value'], '61 ms'],
      [['message'], '#', ['2', '061']],
      [['note'], 'expires soon'],
      [['at'], '2026-12-01T00:30:00.000Z'],
    ]);
    // A different number of runs is a different text: set whole.
    expect(roundTrip({ m: 'a 1 b' }, { m: 'a 1 b 2' })).toEqual([[['m'], 'a 1 b 2']]);
    expect(() => applyPatch({ m: 7 }, [[['m'], '#', ['8']]])).toThrow(/names no text/);
  });

  it('sets added keys and deletes removed keys', () => {
    const base = { a: 1, gone: 'x', nested: { keep: true, drop: [1] } };
    const actual = { a: 1, added: { deep: [null] }, nested: { keep: true, fresh: null } };
    const patch = roundTrip(base, actual)!;
    expect(patch).toHaveLength(4);
    expect(patch).toContainEqual([['added'], { deep: [null] }]);
    expect(patch).toContainEqual([['gone']]);
    expect(patch).toContainEqual([['nested', 'fresh'], null]);
    expect(patch).toContainEqual([['nested', 'drop']]);
  });

  it('patches arrays of equal length element by element and replaces arrays of another length whole', () => {
    expect(roundTrip({ l: [1, 2, 3] }, { l: [1, 9, 3] })).toEqual([[['l', 1], 9]]);
    expect(roundTrip({ l: [{ x: 1 }, { x: 2 }] }, { l: [{ x: 1 }, { x: 2, y: 3 }] })).toEqual([[['l', 1, 'y'], 3]]);
    expect(roundTrip({ l: [1, 2, 3] }, { l: [1, 2] })).toEqual([[['l'], [1, 2]]]);
    expect(roundTrip({ l: [1] }, { l: [1, 2, 3] })).toEqual([[['l'], [1, 2, 3]]]);
    expect(roundTrip({ l: [] }, { l: [{ a: 1 }] })).toEqual([[['l'], [{ a: 1 }]]]);
    roundTrip([[1, 2], [3]], [[1, 2], [3, 4]]);
  });

  it('replaces the root when the kinds differ or a primitive changes', () => {
    expect(roundTrip({ a: 1 }, [1])).toEqual([[[], [1]]]);
    expect(roundTrip([1], { 0: 1 })).toEqual([[[], { 0: 1 }]]);
    expect(roundTrip({ a: 1 }, null)).toEqual([[[], null]]);
    expect(roundTrip(null, { a: 1 })).toEqual([[[], { a: 1 }]]);
    expect(roundTrip(1, 2)).toEqual([[[], 2]]);
    expect(roundTrip('a', 'b')).toEqual([[[], 'b']]);
    expect(roundTrip(true, false)).toEqual([[[], false]]);
    expect(roundTrip(0, null)).toEqual([[[], null]]);
  });

  it('changes a value between null, primitives, arrays and objects inside an object', () => {
    roundTrip({ v: null }, { v: 0 });
    roundTrip({ v: 0 }, { v: null });
    roundTrip({ v: '' }, { v: false });
    roundTrip({ v: { a: 1 } }, { v: [1] });
    roundTrip({ v: [] }, { v: {} });
    roundTrip({ v: { a: { b: { c: 1 } } } }, { v: { a: { b: 'c' } } });
  });

  it('does not mutate the base or the patch, and the result shares nothing with either', () => {
    const base = { a: { b: [1, 2] }, c: 'x' };
    const baseCopy = structuredClone(base);
    const patch: Patch = [[['a', 'b', 0], { deep: 1 }], [['c']], [['d'], [1]]];
    const patchCopy = structuredClone(patch);
    const result = applyPatch(base, patch) as Record<string, unknown>;
    expect(result).toStrictEqual({ a: { b: [{ deep: 1 }, 2] }, d: [1] });
    expect(base).toStrictEqual(baseCopy);
    expect(patch).toStrictEqual(patchCopy);
    ((result.d as number[])[0] as number) = 5;
    (((result.a as { b: Array<{ deep: number }> }).b[0]!) as { deep: number }).deep = 7;
    expect(patch).toStrictEqual(patchCopy);
    // Root replacement too: a copy of the patch's value, not the value itself.
    const rootPatch: Patch = [[[], { r: [1] }]];
    const root = applyPatch({}, rootPatch) as { r: number[] };
    root.r.push(2);
    expect(rootPatch).toStrictEqual([[[], { r: [1] }]]);
  });

  it('throws when a patch path does not fit the result', () => {
    expect(() => applyPatch({ a: 1 }, [[['a', 'b', 'c'], 1]])).toThrow(/does not fit/);
    expect(() => applyPatch({ a: null }, [[['a', 'b'], 1]])).toThrow(/does not fit/);
  });

  it('sets a `__proto__` key (from JSON.parse) as an own property and never touches a prototype', () => {
    const base = JSON.parse('{"a":{"x":1},"list":[{"k":1}]}') as Record<string, unknown>;
    const actual = JSON.parse('{"a":{"x":1,"__proto__":{"polluted":true}},"list":[{"k":1,"__proto__":{"polluted":true}}],"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(Object.hasOwn(actual, '__proto__')).toBe(true);
    const patch = diffJson(base, actual)!;
    expect(patch).toHaveLength(3);
    const result = applyPatch(base, patch) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(result.a)).toBe(Object.prototype);
    expect(Object.getPrototypeOf((result.list as object[])[0])).toBe(Object.prototype);
    expect(Object.hasOwn(result, '__proto__')).toBe(true);
    expect(Object.hasOwn(result.a as object, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).toEqual({ polluted: true });
    expect((result as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(sameJson(result, actual)).toBe(true);
    expect(JSON.stringify(result)).toBe(JSON.stringify(actual));

    // Changing and then deleting the own `__proto__` key again.
    const changed = JSON.parse('{"a":{"x":1,"__proto__":{"polluted":false}},"list":[{"k":1,"__proto__":{"polluted":true}}],"__proto__":{"polluted":true}}') as unknown;
    const again = applyPatch(result, diffJson(result, changed));
    expect(JSON.stringify(again)).toBe(JSON.stringify(changed));
    expect(Object.getPrototypeOf((again as { a: object }).a)).toBe(Object.prototype);
    const removed = applyPatch(again, diffJson(again, base));
    expect(removed).toStrictEqual(base);
    expect(Object.hasOwn(removed as object, '__proto__')).toBe(false);
    expect(Object.getPrototypeOf(removed)).toBe(Object.prototype);

    // A hand-written patch setting `__proto__` on an object without one.
    const direct = applyPatch({ a: {} } as Record<string, unknown>, [[['a', '__proto__'], { polluted: 1 }], [['a', '__proto__', 'polluted'], 2]]);
    expect(Object.getPrototypeOf(direct.a)).toBe(Object.prototype);
    expect(JSON.stringify(direct)).toBe('{"a":{"__proto__":{"polluted":2}}}');
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  describe('on random JSON pairs (seeded)', () => {
    /** Every object and array in `value` has its ordinary prototype. */
    const plainPrototypes = (value: unknown): boolean => {
      if (Array.isArray(value)) return Object.getPrototypeOf(value) === Array.prototype && value.every(plainPrototypes);
      if (typeof value === 'object' && value !== null) {
        return Object.getPrototypeOf(value) === Object.prototype && Object.keys(value).every((key) => plainPrototypes(Object.getOwnPropertyDescriptor(value, key)!.value));
      }
      return true;
    };
    const KEYS = ['a', 'b', 'c', 'value', 'bannerMs', 'takenAt', '__proto__', '0', 'x y', ''];

    function randomJson(rand: () => number, depth: number): unknown {
      const pick = rand();
      if (depth <= 0 || pick < 0.35) {
        const kind = Math.floor(rand() * 6);
        if (kind === 0) return null;
        if (kind === 1) return rand() < 0.5;
        if (kind === 2) return Math.floor(rand() * 20) - 5;
        if (kind === 3) return Math.round(rand() * 1000) / 8;
        if (kind === 4) return ['', 'x', 'slowest in 45 ms', 'ü'][Math.floor(rand() * 4)];
        return String(Math.floor(rand() * 3));
      }
      if (pick < 0.65) return Array.from({ length: Math.floor(rand() * 4) }, () => randomJson(rand, depth - 1));
      const object: Record<string, unknown> = {};
      for (const key of KEYS) {
        if (rand() < 0.3) Object.defineProperty(object, key, { value: randomJson(rand, depth - 1), enumerable: true, writable: true, configurable: true });
      }
      return object;
    }

    /** A variation of `value`: most of it kept, some leaves changed, keys added or dropped, arrays resized. */
    function mutate(rand: () => number, value: unknown, depth: number): unknown {
      const roll = rand();
      if (roll < 0.08) return randomJson(rand, depth);
      if (Array.isArray(value)) {
        const items = value.map((item) => (rand() < 0.3 ? mutate(rand, item, depth - 1) : structuredClone(item)));
        if (roll < 0.2) items.push(randomJson(rand, depth - 1));
        else if (roll < 0.3) items.pop();
        return items;
      }
      if (typeof value === 'object' && value !== null) {
        const object: Record<string, unknown> = {};
        for (const [key, item] of Object.entries(value)) {
          if (rand() < 0.1) continue;
          Object.defineProperty(object, key, { value: rand() < 0.3 ? mutate(rand, item, depth - 1) : structuredClone(item), enumerable: true, writable: true, configurable: true });
        }
        if (roll < 0.25) {
          const key = KEYS[Math.floor(rand() * KEYS.length)]!;
          Object.defineProperty(object, key, { value: randomJson(rand, depth - 1), enumerable: true, writable: true, configurable: true });
        }
        return object;
      }
      return roll < 0.5 ? value : randomJson(rand, 0);
    }

    it('applyPatch(a, diffJson(a, b)) equals b, leaves a unchanged, and the patch survives JSON text', () => {
      const rand = seededRandom(0x5e9d);
      let patched = 0;
      let unchanged = 0;
      for (let i = 0; i < 400; i += 1) {
        const a = randomJson(rand, 4);
        const b = rand() < 0.2 ? randomJson(rand, 4) : mutate(rand, a, 4);
        const aText = JSON.stringify(a);
        const patch = diffJson(a, b);
        const viaText = JSON.parse(JSON.stringify(patch)) as Patch | null;
        const rebuilt = applyPatch(a, viaText);
        expect(JSON.stringify(a), `case ${i}: a is unchanged`).toBe(aText);
        expect(sameJson(rebuilt, b), `case ${i}: ${aText} -> ${JSON.stringify(b)} by ${JSON.stringify(patch)}`).toBe(true);
        expect(canonicalJson(rebuilt), `case ${i}`).toBe(canonicalJson(b));
        expect(plainPrototypes(rebuilt), `case ${i}`).toBe(true);
        if (sameJson(a, b)) {
          expect(patch, `case ${i}`).toBeNull();
          unchanged += 1;
        } else {
          expect(patch, `case ${i}`).not.toBeNull();
          patched += 1;
        }
      }
      // The generator covers both sides.
      expect(patched).toBeGreaterThan(200);
      expect(unchanged).toBeGreaterThan(5);
      expect(Object.prototype).not.toHaveProperty('polluted');
    });
  });
});

describe('resultIdentity', () => {
  const dnsPerformance = (ms: number) => ({
    status: 'valid',
    value: `slowest in ${ms} ms`,
    message: `DNS answered, slowest in ${ms} ms`,
    recommendation: null,
    details: { responseTimeMs: ms, aRecords: ['192.0.2.1'] },
  });
  const smtp = (bannerMs: number, daysRemaining: number, extra: Record<string, unknown> = {}) => ({
    status: 'success',
    value: '1 host',
    message: 'STARTTLS offered',
    recommendation: null,
    details: {
      hosts: [{ exchange: 'mx.example.com', bannerMs, starttls: true, certificate: { issuer: 'R3', validTo: '2027-01-01T00:00:00.000Z', daysRemaining }, ...extra }],
    },
  });
  const spf = (record: string, lookups: number, status = 'valid') => ({
    status,
    value: record,
    message: 'SPF record found',
    recommendation: null,
    details: { record, lookups, flattenedIps: [{ ip: '192.0.2.1' }] },
  });

  it('is a stable string, the same for equal content', () => {
    const id = resultIdentity(spf('v=spf1 -all', 1));
    expect(id).toMatch(/^[\w-]{43}$/);
    expect(resultIdentity(spf('v=spf1 -all', 1))).toBe(id);
  });

  it('ignores timings, timestamps and days remaining', () => {
    expect(resultIdentity(smtp(45, 30))).toBe(resultIdentity(smtp(61, 30)));
    expect(resultIdentity(smtp(45, 30))).toBe(resultIdentity(smtp(45, 29)));
    expect(resultIdentity({ takenAt: '2026-01-01T00:00:00.000Z', a: ['192.0.2.1'] })).toBe(resultIdentity({ takenAt: '2026-01-01T00:15:00.000Z', a: ['192.0.2.1'] }));
    expect(resultIdentity({ details: { expiresAt: '2026-01-01T00:00:00.000Z', daysRemaining: 3 } })).toBe(resultIdentity({ details: { expiresAt: '2027-01-01T00:00:00.000Z', daysRemaining: 300 } }));
    expect(resultIdentity({ details: { ms: 4 } })).toBe(resultIdentity({ details: { ms: 9 } }));
  });

  it('ignores the digits of the top-level value and message ("slowest in 45 ms" vs "slowest in 61 ms")', () => {
    expect(resultIdentity(dnsPerformance(45))).toBe(resultIdentity(dnsPerformance(61)));
    expect(resultIdentity(dnsPerformance(5))).toBe(resultIdentity(dnsPerformance(1234)));
    // Only the digits: other text in them still counts.
    expect(resultIdentity(dnsPerformance(45))).not.toBe(resultIdentity({ ...dnsPerformance(45), value: 'slowest in 45 s' }));
    expect(resultIdentity(dnsPerformance(45))).not.toBe(resultIdentity({ ...dnsPerformance(45), message: 'DNS timed out, slowest in 45 ms' }));
  });

  it('changes with the status, a record text in details, or a number that is not a timing', () => {
    const base = resultIdentity(spf('v=spf1 include:_spf.example.com -all', 3));
    expect(resultIdentity(spf('v=spf1 include:_spf.example.com -all', 3, 'warning'))).not.toBe(base);
    expect(resultIdentity(spf('v=spf1 include:_spf.example.com ~all', 3))).not.toBe(base);
    expect(resultIdentity(spf('v=spf1 include:_spf.example.com -all', 4))).not.toBe(base);
    expect(resultIdentity({ ...spf('v=spf1 include:_spf.example.com -all', 3), recommendation: 'Use -all' })).not.toBe(base);
    // Digits inside details are not ignored (only the top-level value and message texts).
    expect(resultIdentity({ details: { record: 'v=spf1 ip4:192.0.2.1 -all' } })).not.toBe(resultIdentity({ details: { record: 'v=spf1 ip4:192.0.2.2 -all' } }));
    expect(resultIdentity({ details: { message: 'in 45 ms' } })).not.toBe(resultIdentity({ details: { message: 'in 61 ms' } }));
    // A host's non-timing fields still count.
    expect(resultIdentity(smtp(45, 30, { starttls: false }))).not.toBe(resultIdentity(smtp(45, 30)));
    // A number where a timing key is missing, or an added key, counts too.
    expect(resultIdentity({ details: { bannerMs: 4 } })).not.toBe(resultIdentity({ details: {} }));
    expect(resultIdentity({ details: { a: null } })).not.toBe(resultIdentity({ details: {} }));
    // A volatile key holding a structure is compared as such.
    expect(resultIdentity({ details: { lagMs: { n: 1 } } })).not.toBe(resultIdentity({ details: { lagMs: { n: 2 } } }));
  });

  it('does not depend on key order, at any depth', () => {
    const a = { status: 'valid', value: 'x', details: { record: 'r', nested: { p: 1, q: [{ m: 1, n: 2 }] } } };
    const b = { details: { nested: { q: [{ n: 2, m: 1 }], p: 1 }, record: 'r' }, value: 'x', status: 'valid' };
    expect(resultIdentity(b)).toBe(resultIdentity(a));
    // Array order does count.
    expect(resultIdentity({ details: { l: [1, 2] } })).not.toBe(resultIdentity({ details: { l: [2, 1] } }));
  });
});
