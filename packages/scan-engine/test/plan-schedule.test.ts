import { createTestDb, type TestDb } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlanSchedule } from '../src/schedule/plan-schedule.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.close());

const HOUR = 3_600_000;
let serial = 0;

/** A user on `plan` with `count` active domains created a minute apart, oldest first. */
async function userWithDomains(plan: string, count: number, nextScanAt: Date | null = null) {
  serial += 1;
  const user = await t.db
    .insertInto('users')
    .values({ username: `plan-${serial}`, email: `plan-${serial}@example.com`, passwordHash: 'x', planType: plan })
    .returning('id')
    .executeTakeFirstOrThrow();
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const row = await t.db
      .insertInto('domains')
      .values({ userId: user.id, name: `d${i}-${serial}.example`, nextScanAt, createdAt: new Date(Date.now() - (count - i) * 60_000) })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(row.id);
  }
  return { userId: user.id, ids };
}

const domainsOf = (userId: number) =>
  t.db.selectFrom('domains').select(['id', 'scanPaused', 'nextScanAt']).where('userId', '=', userId).orderBy('id').execute();

describe('applyPlanSchedule', () => {
  it('schedules every domain of a paid plan within its limit now, and pauses the newest above it', async () => {
    const now = new Date();
    const { userId, ids } = await userWithDomains('basic', 4);
    expect(await applyPlanSchedule(t.db, userId, now)).toEqual({ scheduled: 2, paused: 2 });
    const rows = await domainsOf(userId);
    expect(rows.map((r) => [r.id, r.scanPaused, r.nextScanAt?.getTime() ?? null])).toEqual([
      [ids[0], false, now.getTime()],
      [ids[1], false, now.getTime()],
      [ids[2], true, null],
      [ids[3], true, null],
    ]);
  });

  it('clears scheduled scans on a manual-only plan, keeping its one domain unpaused', async () => {
    const { userId } = await userWithDomains('standard', 2, new Date(Date.now() + HOUR));
    await t.db.updateTable('users').set({ planType: 'free' }).where('id', '=', userId).execute();
    expect(await applyPlanSchedule(t.db, userId)).toEqual({ scheduled: 0, paused: 1 });
    expect((await domainsOf(userId)).map((r) => [r.scanPaused, r.nextScanAt])).toEqual([
      [false, null],
      [true, null],
    ]);
  });

  it('keeps a sooner scheduled scan, and brings one further off than the new interval to now', async () => {
    const now = new Date();
    const soon = new Date(now.getTime() + 10 * 60_000);
    const { userId } = await userWithDomains('advanced', 1, soon);
    await applyPlanSchedule(t.db, userId, now);
    expect((await domainsOf(userId))[0]!.nextScanAt?.getTime()).toBe(soon.getTime());

    // Basic scans every 4 h; advanced every 15 min: the upgrade must not wait out the old interval.
    const far = new Date(now.getTime() + 4 * HOUR);
    const upgraded = await userWithDomains('advanced', 1, far);
    await applyPlanSchedule(t.db, upgraded.userId, now);
    expect((await domainsOf(upgraded.userId))[0]!.nextScanAt?.getTime()).toBe(now.getTime());
  });

  it('resumes a paused domain when an older one is removed, and leaves deleted domains alone', async () => {
    const { userId, ids } = await userWithDomains('basic', 3);
    await applyPlanSchedule(t.db, userId);
    await t.db.updateTable('domains').set({ isDeleted: true, deletedAt: new Date(), nextScanAt: null }).where('id', '=', ids[0]!).execute();
    expect(await applyPlanSchedule(t.db, userId)).toEqual({ scheduled: 2, paused: 0 });
    const rows = await domainsOf(userId);
    expect(rows.find((r) => r.id === ids[0])).toMatchObject({ nextScanAt: null });
    expect(rows.find((r) => r.id === ids[2])).toMatchObject({ scanPaused: false });
  });

  it('answers zeros for a user that does not exist, and runs inside a caller’s transaction', async () => {
    expect(await applyPlanSchedule(t.db, -1)).toEqual({ scheduled: 0, paused: 0 });
    const { userId } = await userWithDomains('standard', 1);
    const inside = await t.db.transaction().execute((trx) => applyPlanSchedule(trx, userId));
    expect(inside).toEqual({ scheduled: 1, paused: 0 });
  });
});
