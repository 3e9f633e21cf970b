import { API_ROUTES } from '@sendwell/contracts';
import { ROUTE_TABLE } from '@sendwell/gateway/src/proxy/route-table.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { describeRequest, send } from './support/http.js';
import { fuzzCase, knownBadCases, type FuzzCase, type FuzzTarget } from './support/inputs.js';
import { check, createWorld, pathFor, toRawRequest, type World } from './support/world.js';

/**
 * The budget: API_FUZZ_SECONDS for the generated cases of every route together (60 by default, shared
 * evenly), at most API_FUZZ_RUNS per route, from API_FUZZ_SEED (fixed, so a CI failure replays as it was);
 * API_FUZZ_PATH replays one reported failure.
 */
const budgetMs = Number(process.env.API_FUZZ_SECONDS ?? 60) * 1000;
const numRuns = Number(process.env.API_FUZZ_RUNS ?? 1000);
const seed = Number(process.env.API_FUZZ_SEED ?? 11);
/** With the seed, replays one failure exactly (the report prints both). */
const replayPath = process.env.API_FUZZ_PATH;

let world: World;
/** Generated requests sent, for the closing line. */
let generated = 0;
beforeAll(async () => {
  world = await createWorld(inject('baseUrl'), inject('databaseUrl'));
});
afterAll(async () => {
  await world?.close();
  console.log(`api-fuzz: ${generated} generated requests over ${TARGETS.length} routes and gateway paths (seed ${seed}, API_FUZZ_SECONDS=${budgetMs / 1000})`);
});

/** Under each prefix of the gateway's route table, and where nothing is routed. */
const GATEWAY_PATHS: FuzzTarget[] = [...ROUTE_TABLE.map((entry) => entry.pattern.replace(/\*$/, '/fuzz')), '/api/nothing-here'].map((path) => ({ method: 'POST', path }));
const TARGETS = [...API_ROUTES, ...GATEWAY_PATHS];

const routeName = (route: FuzzTarget) => `${route.method} ${route.path}`;

/** Failures that differ only by who sent them (identity, token, unique names, request id) are shown once. */
function oneOfEachKind(failures: string[]): string[] {
  const kinds = new Map<string, string>();
  for (const failure of failures) {
    const kind = failure
      .replace(/ \(as \w+\)/, '')
      .replace(/\n {2}authorization: .*/, '')
      .replace(/fuzz\d[a-z0-9]+/g, 'fuzz')
      .replace(/"requestId":"[^"]*"/, '');
    if (!kinds.has(kind)) kinds.set(kind, failure);
  }
  return [...kinds.values()];
}

describe("another user's objects", () => {
  const idRoutes = API_ROUTES.filter((route) => /:(?:id|scanId)\b/.test(route.path));

  it.each(idRoutes.map((route) => [routeName(route), route] as const))('%s answers 401, 403 or 404 for them, never their data', async (_, route) => {
    const victim = world.victim;
    // Invoice ids are Stripe's; services/billing's tests try a real invoice of another customer.
    const id = route.path.startsWith('/api/alerts') ? victim.alertId : route.path.startsWith('/api/billing/invoices') ? 'in_fuzzvictim' : victim.domainId;
    for (const identity of ['anonymous', 'free', 'paid'] as const) {
      const fuzz: FuzzCase = { identity, method: route.method, params: { id: String(id), scanId: victim.scanId }, query: [], headers: { 'content-type': 'application/json' }, body: route.method === 'GET' ? undefined : '{}', chunked: false };
      const req = await toRawRequest(world, route, fuzz);
      const res = await send(world.baseUrl, req);
      expect([401, 403, 404], `as ${identity}: ${describeRequest(req, res)}`).toContain(res.status);
      expect(res.body).not.toContain(victim.domainName);
    }
  });

  it('are the ones the owner reads (the check above would pass for ids that do not exist)', async () => {
    const owner = { ...world, accounts: { ...world.accounts, paid: world.accounts.victim } };
    const route = API_ROUTES.find((r) => r.method === 'GET' && r.path === '/api/domains/:id')!;
    const fuzz: FuzzCase = { identity: 'paid', method: 'GET', params: { id: String(world.victim.domainId) }, query: [], headers: {}, chunked: false };
    const res = await send(world.baseUrl, await toRawRequest(owner, route, fuzz));
    expect(res.status).toBe(200);
    expect(pathFor(route, fuzz)).toBe(`/api/domains/${world.victim.domainId}`);
  });
});

describe('no 5xx from any input, through the gateway to the real services', () => {
  it.each(TARGETS.map((route) => [routeName(route), route] as const))('%s', async (_, route) => {
    // The cases the drill of issue 11 found first, all of them: every failing request is listed.
    const failures: string[] = [];
    for (const fuzz of knownBadCases(route)) {
      await check(world, route, fuzz).catch((error: Error) => failures.push(error.message));
    }
    expect(failures, `${failures.length} known bad inputs failed:\n\n${oneOfEachKind(failures).join('\n\n')}`).toEqual([]);

    // Then generated ones within this route's share of the budget; the report gives the seed and the shrunk request.
    const details = await fc.check(
      fc.asyncProperty(fuzzCase(route, world), (fuzz) => check(world, route, fuzz)),
      { seed, path: replayPath, numRuns, interruptAfterTimeLimit: budgetMs / TARGETS.length, markInterruptAsFailure: false },
    );
    generated += details.numRuns;
    // fast-check calls a run interrupted before its first success a failure, with no counterexample:
    // on a loaded machine a slow route (one that calls the Stripe stand-in) can spend its whole share
    // on its first request. That is the budget running out, not an input that failed.
    const outOfTime = details.interrupted && details.counterexample === null;
    if (details.failed && !outOfTime) {
      // Our own report: fast-check's would print the whole counterexample, megabytes of a huge string.
      const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
      const replay = `API_FUZZ_SEED=${details.seed} API_FUZZ_PATH=${details.counterexamplePath} pnpm --filter @sendwell/api-fuzz test -t '${routeName(route)}'`;
      throw new Error(`generated input failed after ${details.numRuns} runs (shrunk ${details.numShrinks} times; replay: ${replay}):\n${cause}`);
    }
  });
});
