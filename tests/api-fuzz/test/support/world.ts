import { randomBytes } from 'node:crypto';
import { createDb, type Database } from '@sendwell/db';
import { FIXTURE_DOMAIN } from './fixture-dns.js';
import { HUGE_BODY_BYTES, type FuzzCase, type FuzzTarget, type IdentityName, type KnownValues } from './inputs.js';
import { describeRequest, send, type RawRequest, type RawResponse } from './http.js';

interface Account {
  email: string;
  password: string;
  token: string;
}

/** The run's users and the objects they own, set up through the real API (paid plans set in the database, with no Stripe customer). */
export interface World extends KnownValues {
  baseUrl: string;
  accounts: Record<Exclude<IdentityName, 'anonymous'>, Account> & { victim: Account };
  /** A session of its own for a call that ends the one it is given (logout). */
  freshToken(identity: IdentityName): Promise<string | undefined>;
  close(): Promise<void>;
}

async function call(baseUrl: string, method: string, path: string, body?: unknown, token?: string): Promise<unknown> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer: unknown = await res.json();
  if (!res.ok) throw new Error(`set-up call ${method} ${path} answered ${res.status}: ${JSON.stringify(answer)}`);
  return answer;
}

async function login(baseUrl: string, email: string, password: string): Promise<string> {
  return ((await call(baseUrl, 'POST', '/api/auth/login', { email, password })) as { token: string }).token;
}

/** A verified user on `plan`, registered and signed in through the gateway. */
async function account(baseUrl: string, db: Database, plan: string): Promise<Account> {
  const tag = randomBytes(4).toString('hex');
  const email = `fuzz-${tag}@example.com`;
  const password = `Fuzz-${tag}-password`;
  await call(baseUrl, 'POST', '/api/auth/register', { username: `fuzz${tag}`, email, confirmEmail: email, password, confirmPassword: password });
  await db.updateTable('users').set({ emailVerified: true, planType: plan }).where('email', '=', email).execute();
  return { email, password, token: await login(baseUrl, email, password) };
}

/** A domain with its first scan and one alert, owned by `owner`. */
async function ownedObjects(baseUrl: string, db: Database, owner: Account) {
  const added = (await call(baseUrl, 'POST', '/api/domains', { name: FIXTURE_DOMAIN }, owner.token)) as { domain: { id: number; name: string; userId?: number }; scanId: string | null };
  const domain = await db.selectFrom('domains').select(['id', 'userId', 'name']).where('id', '=', added.domain.id).executeTakeFirstOrThrow();
  const alert = await db
    .insertInto('domainAlerts')
    .values({ domainId: domain.id, userId: domain.userId, type: 'dns_change', severity: 'low', title: 'Fuzz alert', message: 'An alert the fuzz test reads.' })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (!added.scanId) throw new Error('the first scan was not queued');
  return { domainId: domain.id, domainName: domain.name, scanId: added.scanId, alertId: alert.id };
}

export async function createWorld(baseUrl: string, databaseUrl: string): Promise<World> {
  const db = createDb({ connectionString: databaseUrl, max: 2, applicationName: 'api-fuzz' });
  const [free, paid, victim] = await Promise.all([account(baseUrl, db, 'free'), account(baseUrl, db, 'advanced'), account(baseUrl, db, 'advanced')]);
  const [own, victimObjects] = await Promise.all([ownedObjects(baseUrl, db, paid), ownedObjects(baseUrl, db, victim)]);
  const accounts = { free, paid, victim };
  return {
    baseUrl,
    accounts,
    own,
    victim: victimObjects,
    freshToken: async (identity) => (identity === 'anonymous' ? undefined : login(baseUrl, accounts[identity].email, accounts[identity].password)),
    close: () => db.destroy(),
  };
}

/** `/api/domains/:id/scans/:scanId` with the case's (already encoded) values, plus its query string. */
export function pathFor(route: FuzzTarget, fuzz: FuzzCase): string {
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => fuzz.params[name] ?? '');
  const query = new URLSearchParams(fuzz.query).toString();
  return query ? `${path}?${query}` : path;
}

/** The case as bytes on the wire, signed in as its identity by a bearer token (odd cookies come from the generator). */
export async function toRawRequest(world: World, route: FuzzTarget, fuzz: FuzzCase): Promise<RawRequest> {
  // Logout revokes the session it is given: it gets one of its own so the others stay signed in.
  const token = route.path === '/api/auth/logout' ? await world.freshToken(fuzz.identity) : fuzz.identity === 'anonymous' ? undefined : world.accounts[fuzz.identity].token;
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (fuzz.chunked && fuzz.body !== undefined) auth['transfer-encoding'] = 'chunked';
  return { method: fuzz.method, path: pathFor(route, fuzz), headers: { ...auth, ...fuzz.headers }, body: fuzz.body, chunked: fuzz.chunked && fuzz.body !== undefined };
}

/** What the test refuses: a 5xx, a dropped connection, or another user's object answered as if it were ours. */
export function verdict(world: World, route: FuzzTarget, fuzz: FuzzCase, req: RawRequest, res: RawResponse): string | null {
  if (res.status >= 500) return `a ${res.status} answer`;
  // Past the limit the server may answer 413 and close before the client has written everything.
  if (res.status === 0 && Buffer.byteLength(req.body ?? '') <= HUGE_BODY_BYTES - 65_536) return 'no answer';
  const victimIds = new Set([world.victim.domainId, world.victim.scanId, world.victim.alertId].map(String));
  const touchesVictim = route.path.includes(':') && Object.entries(fuzz.params).some(([name, value]) => !/domain/i.test(name) && victimIds.has(value));
  // Alert and domain ids are both small integers: the victim's alert id may be the paid user's domain id.
  const ownIds = new Set([world.own.domainId, world.own.scanId, world.own.alertId].map(String));
  const alsoOwn = Object.values(fuzz.params).some((value) => ownIds.has(value));
  if (touchesVictim && !alsoOwn && res.status >= 200 && res.status < 300 && fuzz.method !== 'OPTIONS') return "another user's object answered";
  return null;
}

/** Sends one case and throws with the request that caused it when the verdict is a failure. */
export async function check(world: World, route: FuzzTarget, fuzz: FuzzCase): Promise<void> {
  const req = await toRawRequest(world, route, fuzz);
  const res = await send(world.baseUrl, req);
  const failure = verdict(world, route, fuzz, req, res);
  if (failure) throw new Error(`${failure} (as ${fuzz.identity}) for ${route.method} ${route.path}:\n${describeRequest(req, res)}`);
}
