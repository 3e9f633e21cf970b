import { MANUAL_SCAN_COOLDOWN_MS } from '@sendwell/contracts';
import { createTestDb, type TestDb } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualScanCooldown } from '@sendwell/scan-engine';
import { DomainRepository } from '../src/domains/domain.repository.js';
import { factory, type Factory } from './factory.js';

let testDb: TestDb;
let f: Factory;
let repo: DomainRepository;
let cooldown: ManualScanCooldown;
beforeAll(async () => {
  testDb = await createTestDb();
  f = factory(testDb.db);
  repo = new DomainRepository(testDb.db);
  cooldown = new ManualScanCooldown(testDb.db);
});
afterAll(() => testDb.close());

describe('DomainRepository', () => {
  it('counts active domains and restorable deletions toward the limit', async () => {
    const user = await f.user();
    await f.domain({ userId: user.id });
    await f.domain({ userId: user.id, deletedDaysAgo: 89 });
    await f.domain({ userId: user.id, deletedDaysAgo: 91 });
    expect(await repo.countTowardLimit(user.id)).toEqual({ total: 2, active: 1 });
  });

  it('purges expired deletions across several batches and nothing else', async () => {
    const user = await f.user();
    for (let i = 0; i < 5; i++) await f.domain({ userId: user.id, deletedDaysAgo: 100 + i });
    const kept = await f.domain({ userId: user.id, deletedDaysAgo: 10 });
    // Global by design (other tests of this file left one expired deletion too).
    expect(await repo.purgeExpired(2)).toBeGreaterThanOrEqual(5);
    const left = await testDb.db.selectFrom('domains').select('id').where('userId', '=', user.id).execute();
    expect(left).toEqual([{ id: kept.id }]);
  });
});

// The cooldown is the scan engine's (`domains.last_manual_scan_at`); tested here on this service's fixtures.
describe('ManualScanCooldown', () => {
  it('claims the manual-scan cooldown once among many simultaneous claims, and reports the time left', async () => {
    const user = await f.user();
    const d = await f.domain({ userId: user.id });
    const claims = await Promise.all(Array.from({ length: 8 }, () => cooldown.claim(user.id, d.id, MANUAL_SCAN_COOLDOWN_MS)));
    expect(claims.filter((c) => c.kind === 'claimed')).toHaveLength(1);
    const cooling = claims.filter((c) => c.kind === 'cooling');
    expect(cooling).toHaveLength(7);
    for (const c of cooling) expect(c.kind === 'cooling' && c.retryAfterMs).toBeGreaterThan(MANUAL_SCAN_COOLDOWN_MS - 10_000);
  });

  it('gives a claim back only while it is still the latest one', async () => {
    const user = await f.user();
    const d = await f.domain({ userId: user.id });
    const claim = await cooldown.claim(user.id, d.id, MANUAL_SCAN_COOLDOWN_MS);
    expect(claim.kind).toBe('claimed');
    if (claim.kind !== 'claimed') return;
    await cooldown.release(d.id, new Date(claim.claimedAt.getTime() - 1));
    expect((await cooldown.claim(user.id, d.id, MANUAL_SCAN_COOLDOWN_MS)).kind).toBe('cooling');
    await cooldown.release(d.id, claim.claimedAt);
    expect((await cooldown.claim(user.id, d.id, MANUAL_SCAN_COOLDOWN_MS)).kind).toBe('claimed');
  });

  it("reads another user's or a deleted domain as missing when claiming", async () => {
    const owner = await f.user();
    const d = await f.domain({ userId: owner.id });
    const other = await f.user();
    expect(await cooldown.claim(other.id, d.id, MANUAL_SCAN_COOLDOWN_MS)).toEqual({ kind: 'missing' });
    const gone = await f.domain({ userId: owner.id, deletedDaysAgo: 1 });
    expect(await cooldown.claim(owner.id, gone.id, MANUAL_SCAN_COOLDOWN_MS)).toEqual({ kind: 'missing' });
  });
});
