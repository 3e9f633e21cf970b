import { MAX_WEBHOOKS_PER_USER, tooManyWebhooksMessage } from '@sendwell/contracts';
import { sql } from '@sendwell/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './fixtures.js';

/**
 * Limits that count rows and then insert, hit by twenty requests of one user at once (what a fuzz
 * drill did: 20 parallel webhook creates all passed the limit of 10). Real Postgres, the real routes.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => {
  await h.close();
});

const AT_ONCE = 20;

async function signedIn(plan: string) {
  const user = await h.f.user(plan);
  return { user, headers: await h.auth(user) };
}

describe('twenty requests at once', () => {
  it(`create exactly ${MAX_WEBHOOKS_PER_USER} webhooks and refuse the rest with the limit's answer`, async () => {
    const { user, headers } = await signedIn('advanced');
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) => h.app.inject({ method: 'POST', url: '/api/integrations/webhooks', headers, payload: { url: `https://127.0.0.1:9/hook-${i}` } })),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(MAX_WEBHOOKS_PER_USER);
    const refused = answers.filter((a) => a.statusCode !== 201);
    expect(refused).toHaveLength(AT_ONCE - MAX_WEBHOOKS_PER_USER);
    for (const res of refused) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'PLAN_LIMIT', message: tooManyWebhooksMessage(MAX_WEBHOOKS_PER_USER) });
    }
    const { n } = await h.db.selectFrom('webhookEndpoints').select(sql<number>`count(*)::int`.as('n')).where('userId', '=', user.id).executeTakeFirstOrThrow();
    expect(n).toBe(MAX_WEBHOOKS_PER_USER);
  });

  it("keep another user's webhooks apart: each user's lock is their own", async () => {
    const [a, b] = [await signedIn('advanced'), await signedIn('advanced')];
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) => {
        const { headers } = i % 2 === 0 ? a : b;
        return h.app.inject({ method: 'POST', url: '/api/integrations/webhooks', headers, payload: { url: `https://127.0.0.1:9/both-${i}` } });
      }),
    );
    // Ten each: exactly both users' limits, nobody refused.
    expect(answers.map((r) => r.statusCode)).toEqual(Array(AT_ONCE).fill(201));
  });

  it('save one integration at most once per service: the row is unique per user and service', async () => {
    const { user, headers } = await signedIn('standard');
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) =>
        h.app.inject({ method: 'POST', url: '/api/integrations', headers, payload: { service: 'teams', config: { webhookUrl: `https://127.0.0.1:9/teams-${i}` } } }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(AT_ONCE).fill(200));
    const rows = await h.db.selectFrom('integrations').select('service').where('userId', '=', user.id).execute();
    expect(rows).toEqual([{ service: 'teams' }]);
  });
});
