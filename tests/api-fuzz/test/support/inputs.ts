import type { ApiRoute } from '@sendwell/contracts';
import fc from 'fast-check';
import { z } from 'zod';
import { FIXTURE_DOMAIN } from './fixture-dns.js';

/** What the generator needs of a call: a catalogued route, or a gateway prefix no call serves yet. */
export type FuzzTarget = Pick<ApiRoute, 'method' | 'path' | 'params' | 'querystring' | 'body'>;

export const IDENTITIES = ['anonymous', 'free', 'paid'] as const;
export type IdentityName = (typeof IDENTITIES)[number];

/** One generated call: what to send and as whom; `toRawRequest` (world.ts) turns it into bytes. */
export interface FuzzCase {
  identity: IdentityName;
  method: string;
  /** Path parameters, already percent-encoded (or deliberately malformed) for the path. */
  params: Record<string, string>;
  /** Query pairs, encoded by URLSearchParams; a repeated name arrives as an array. */
  query: [string, string][];
  headers: Record<string, string>;
  /** Undefined: no body at all. */
  body?: string;
  chunked: boolean;
}

/** Ids and names that exist in the run's database, so generated calls reach past "not found". */
export interface KnownValues {
  /** The paid user's own domain, scan and alert. */
  own: { domainId: number; domainName: string; scanId: string; alertId: number };
  /** Another user's: any answer but 401, 403 or 404 to these (as someone else) is a leak. */
  victim: { domainId: number; domainName: string; scanId: string; alertId: number };
}

/** Above Fastify's and the gateway's 1 MiB body limit. */
export const HUGE_BODY_BYTES = 1_048_576 + 64 * 1024;

/** Values the drill of issue 11 found answering 5xx, and their neighbours. */
export const OUT_OF_RANGE_NUMBERS = ['2147483648', '-1', '0', '1e309', '-1e309', 'NaN', 'Infinity', '0x10', '1.5', '9'.repeat(400), '00000000001', ' 1'];
export const CONTROL_STRINGS = ['\u0000', 'a\u0000b', '\u0001\u0002', '\r\n', '\u001b[31m', '\u007f', '\ud800', '\u202e'];

/** encodeURIComponent for any string: a lone surrogate (which it refuses) travels as U+FFFD, as a browser sends it. */
const encodeSegment = (value: string) => encodeURIComponent(Buffer.from(value, 'utf8').toString('utf8'));

const printable = (maxLength: number) => fc.string({ unit: 'grapheme-ascii', maxLength });

/** Strings a form never sends: empty, huge, control characters, out-of-range numbers, injections. */
export const badString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', ' ', '   '),
  fc.constantFrom(...CONTROL_STRINGS),
  fc.constantFrom(...OUT_OF_RANGE_NUMBERS),
  fc.constantFrom("' OR 1=1 --", '../../etc/passwd', '%00', '%zz', '${7*7}', '<script>alert(1)</script>', '__proto__', 'constructor', 'null', 'true'),
  fc.integer({ min: 256, max: 20_000 }).map((n) => 'a'.repeat(n)),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

/** Any JSON value of the wrong kind for a field: numbers out of range, objects, arrays, null. */
export const badJson: fc.Arbitrary<unknown> = fc.oneof(
  badString,
  fc.constantFrom(2147483648, -1, 0, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, -0),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
  fc.constant({ __proto__: { polluted: true } }),
);

interface JsonSchemaProperty {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
  anyOf?: JsonSchemaProperty[];
}

/** The properties a zod object schema takes as input (after coercion: what a client sends). */
export function inputProperties(schema: z.ZodType | undefined): Record<string, JsonSchemaProperty> {
  if (!schema) return {};
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, JsonSchemaProperty> };
  return json.properties ?? {};
}

/** A value the schema would accept (or nearly), so the fuzz also reaches what lies behind validation. */
function plausibleValue(name: string, property: JsonSchemaProperty, known: KnownValues): fc.Arbitrary<unknown> {
  const options = property.anyOf ?? [property];
  const first = options.find((o) => o.type !== 'null') ?? property;
  if (first.enum) return fc.constantFrom(...first.enum);
  if (/domain|^name$/i.test(name)) return fc.constantFrom(FIXTURE_DOMAIN, known.own.domainName, known.victim.domainName, 'example.com', 'xn--bcher-kva.example');
  if (first.format === 'email' || /email/i.test(name)) return fc.emailAddress();
  if (first.format === 'uuid') return fc.uuid();
  if (/password/i.test(name)) return printable(30);
  if (first.type === 'integer' || first.type === 'number') return fc.integer({ min: first.minimum ?? -10, max: first.maximum ?? 1000 });
  if (first.type === 'boolean') return fc.boolean();
  return printable(30);
}

/** A JSON object with the contract's fields, each missing, plausible or malformed, plus stray ones. */
function bodyObject(route: FuzzTarget, known: KnownValues): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.fromEntries(
    Object.entries(inputProperties(route.body)).map(([name, property]) => [name, fc.oneof({ arbitrary: plausibleValue(name, property, known), weight: 3 }, { arbitrary: badJson, weight: 2 })]),
  );
  return fc
    .tuple(fc.record(fields, { requiredKeys: [] }), fc.dictionary(printable(12), badJson, { maxKeys: 2 }))
    .map(([own, stray]) => ({ ...stray, ...own }));
}

/** What travels as the body: the contract's object most often, else any JSON, broken JSON or nothing. */
function bodyText(route: FuzzTarget, known: KnownValues): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { arbitrary: bodyObject(route, known).map((value) => JSON.stringify(value)), weight: route.body ? 8 : 1 },
    { arbitrary: badJson.map((value) => JSON.stringify(value) ?? 'null'), weight: 1 },
    { arbitrary: fc.constantFrom('{', '{"a":', '', '\u0000', '[', '{"a":1,"a":2}', '{"__proto__":{"x":1}}', 'null', '"', '\ufeff{}'), weight: 1 },
    { arbitrary: fc.constant(undefined), weight: route.body ? 1 : 4 },
  );
}

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/json; charset=bogus',
  'application/xml',
  'application/json, text/plain',
  '*/*',
  '',
];

/** Path parameters: real ids of this user and another's, out-of-range numbers, and every kind of bad string. */
function paramValue(name: string, known: KnownValues): fc.Arbitrary<string> {
  const real =
    name === 'scanId'
      ? [known.own.scanId, known.victim.scanId]
      : /domain/i.test(name)
        ? [known.own.domainName, known.victim.domainName, FIXTURE_DOMAIN]
        : [known.own.domainId, known.victim.domainId, known.own.alertId, known.victim.alertId].map(String);
  return fc.oneof(
    { arbitrary: fc.constantFrom(...real), weight: 3 },
    { arbitrary: fc.constantFrom(...OUT_OF_RANGE_NUMBERS).map(encodeSegment), weight: 2 },
    { arbitrary: badString.map(encodeSegment), weight: 3 },
    // Left as they are: malformed escapes, encoded separators and dot segments.
    { arbitrary: fc.constantFrom('%zz', '%', '%00', '%2F', '%2e%2e', '..', '.', '%C0%AF', '%ff%fe'), weight: 1 },
  );
}

/** Headers a client can send besides the identity's: `Expect`, odd encodings, forged ids and addresses. */
const oddHeaders: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    expect: fc.constantFrom('100-continue', '100-Continue', 'bogus'),
    'content-encoding': fc.constantFrom('gzip', 'br', 'deflate', 'identity', 'bogus'),
    accept: fc.constantFrom('*/*', 'text/html', 'application/xml', '', 'application/json;q=0'),
    'accept-encoding': fc.constantFrom('gzip', 'br', 'bogus', '*;q=0'),
    'x-request-id': fc.oneof(printable(40), fc.constant('x'.repeat(4000))),
    'x-forwarded-for': fc.constantFrom('not-an-ip', '1.2.3.4, ::1', '999.999.999.999', ''),
    origin: fc.constantFrom('null', 'https://evil.example', 'bogus'),
    authorization: fc.constantFrom('Bearer', 'Bearer ', 'Bearer a.b.c', 'Basic Zm9vOmJhcg==', 'Bearer ' + 'x'.repeat(8000)),
    cookie: fc.constantFrom('token=', 'token=a.b.c', 'token=%zz', '__Host-token=x; token=y', ';;;'),
    range: fc.constantFrom('bytes=0-0', 'bytes=-1', 'bogus'),
  },
  { requiredKeys: [] },
);

const WRONG_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'SEARCH'];

/** Every kind of bad call to `route`, as whom and how. */
export function fuzzCase(route: FuzzTarget, known: KnownValues): fc.Arbitrary<FuzzCase> {
  const paramNames = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const queryNames = Object.keys(inputProperties(route.querystring));
  const queryName = queryNames.length ? fc.oneof({ arbitrary: fc.constantFrom(...queryNames), weight: 4 }, printable(10)) : printable(10);
  const queryValue = fc.oneof(printable(20), badString, fc.constantFrom(...OUT_OF_RANGE_NUMBERS), fc.constantFrom('true', 'false'));
  return fc.record({
    identity: fc.constantFrom(...IDENTITIES),
    method: fc.oneof({ arbitrary: fc.constant(route.method), weight: 8 }, { arbitrary: fc.constantFrom(...WRONG_METHODS), weight: 2 }),
    params: fc.record(Object.fromEntries(paramNames.map((name) => [name, paramValue(name, known)]))),
    query: fc.array(fc.tuple(queryName, queryValue), { maxLength: queryNames.length ? 4 : 1 }),
    headers: fc
      .tuple(fc.oneof({ arbitrary: fc.constant('application/json'), weight: 6 }, fc.constantFrom(...CONTENT_TYPES), fc.constant(undefined)), fc.option(oddHeaders, { freq: 3 }))
      .map(([contentType, odd]) => ({ ...(contentType === undefined ? {} : { 'content-type': contentType }), ...odd })),
    body: bodyText(route, known),
    chunked: fc.boolean(),
  });
}

let uniqueCounter = 0;

/** A value the contract accepts for the field, so a bad value in another field is what reaches the database. */
function validValue(name: string, property: JsonSchemaProperty, unique: string): unknown {
  const first = (property.anyOf ?? [property]).find((o) => o.type !== 'null') ?? property;
  if (first.enum) return first.enum[0];
  if (first.type === 'boolean') return true;
  if (first.type === 'integer' || first.type === 'number') return first.minimum ?? 1;
  if (/email/i.test(name)) return `${unique}@example.com`;
  if (/username/i.test(name)) return unique;
  if (/password/i.test(name)) return 'Valid-Password-1';
  if (/domain|^name$/i.test(name)) return FIXTURE_DOMAIN;
  if (/timezone/i.test(name)) return 'Europe/Paris';
  if (/source/i.test(name)) return 'direct';
  return 'Grace';
}

/** A body the contract accepts for `route` (a new username and email each time), with `value` in `field`. */
function bodyWith(route: FuzzTarget, field: string | undefined, value: unknown): string {
  const unique = `fuzz${(uniqueCounter += 1)}${Date.now().toString(36)}`;
  const fields = Object.fromEntries(Object.entries(inputProperties(route.body)).map(([name, property]) => [name, validValue(name, property, unique)]));
  return JSON.stringify(field ? { ...fields, [field]: value } : fields);
}

/**
 * The cases the drill of issue 11 found answering 5xx, for every route and identity, so they run
 * whatever the generator picks: `Expect: 100-continue`, bodies over the limit (sized and chunked),
 * NUL and other control characters in each text field, ids out of Postgres' integer range, a wrong
 * content type.
 */
export function knownBadCases(route: FuzzTarget): FuzzCase[] {
  const paramNames = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const bodyFields = Object.keys(inputProperties(route.body));
  const validParams = Object.fromEntries(paramNames.map((name) => [name, name === 'scanId' ? '00000000-0000-4000-8000-000000000000' : /domain/i.test(name) ? FIXTURE_DOMAIN : '1']));
  const base = (identity: IdentityName): FuzzCase => ({
    identity,
    method: route.method,
    params: validParams,
    query: [],
    // A call without a body sends no content type: Fastify refuses an empty JSON body before the handler runs.
    headers: route.body ? { 'content-type': 'application/json' } : {},
    body: route.body ? bodyWith(route, undefined, undefined) : undefined,
    chunked: false,
  });
  const json = { 'content-type': 'application/json' };
  const huge = JSON.stringify({ [bodyFields[0] ?? 'padding']: 'a'.repeat(HUGE_BODY_BYTES) });
  return IDENTITIES.flatMap((identity) => {
    const b = base(identity);
    return [
      { ...b, headers: { ...json, expect: '100-continue' }, body: b.body ?? '{}' },
      { ...b, headers: json, body: huge },
      { ...b, headers: json, body: huge, chunked: true },
      { ...b, headers: { 'content-type': 'text/plain' }, body: 'hello' },
      { ...b, headers: json, body: '{' },
      ...bodyFields.flatMap((field) => CONTROL_STRINGS.slice(0, 3).map((value) => ({ ...b, body: bodyWith(route, field, value) }))),
      ...bodyFields.map((field) => ({ ...b, body: bodyWith(route, field, 'x'.repeat(100_000)) })),
      ...paramNames.flatMap((name) => [...OUT_OF_RANGE_NUMBERS, '\u0000', ''].map((value) => ({ ...b, params: { ...b.params, [name]: encodeSegment(value) } }))),
      ...(route.querystring ? Object.keys(inputProperties(route.querystring)).flatMap((name) => ['2147483648', '\u0000', '-1', 'x'.repeat(10_000)].map((value): FuzzCase => ({ ...b, query: [[name, value]] }))) : []),
    ];
  });
}
