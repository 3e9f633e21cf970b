import { SCAN_QUEUE_UNAVAILABLE } from '@sendwell/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './fixtures.js';

let h: Harness;
beforeAll(async () => {
  // Port 1: nothing listens, so every queue call fails.
  h = await startHarness({ REDIS_URL: 'redis://127.0.0.1:1' });
});
afterAll(() => h.close());

describe('with Redis down', () => {
  it('answers POST /scan with 503, marks the scan failed and gives the cooldown back', async () => {
    const user = await h.f.user('standard');
    const headers = await h.auth(user);
    const d = await h.f.domain({ userId: user.id });
    const started = Date.now();
    const res = await h.app.inject({ method: 'POST', url: `/api/domains/${d.id}/scan`, headers });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', message: SCAN_QUEUE_UNAVAILABLE });
    const scans = await h.db.selectFrom('scans').select(['status', 'error']).where('domainId', '=', d.id).execute();
    expect(scans).toEqual([{ status: 'failed', error: expect.any(String) }]);
    const row = await h.db.selectFrom('domains').select('lastManualScanAt').where('id', '=', d.id).executeTakeFirstOrThrow();
    expect(row.lastManualScanAt).toBeNull();
  });

  it('still adds a domain (201, scanId null) when its first scan cannot be queued', async () => {
    const user = await h.f.user('basic');
    const headers = await h.auth(user);
    const res = await h.app.inject({ method: 'POST', url: '/api/domains', headers, payload: { name: 'offline.example.com' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ scanId: null, domain: { name: 'offline.example.com' } });
  });
});
