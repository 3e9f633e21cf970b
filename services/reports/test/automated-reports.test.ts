import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportPeriod } from '@sendwell/contracts';
import { startSmtpServer, type TestSmtpServer } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './fixtures.js';
import { waitFor } from './wait.js';

/** The automated schedule on the real service, mailing through a real SMTP server. */

let h: Harness;
let smtp: TestSmtpServer;
const scratch = mkdtempSync(join(tmpdir(), 'reports-automated-'));

beforeAll(async () => {
  smtp = await startSmtpServer();
  h = await startHarness({ SMTP_URL: smtp.url });
  await h.deps.startWorker();
}, 60_000);

afterAll(async () => {
  await h.close();
  await smtp.close();
  rmSync(scratch, { recursive: true, force: true });
});

const reportsOf = (userId: number) =>
  h.db.selectFrom('reports').select(['id', 'domainId', 'type', 'status', 'period', 'mailedAt']).where('userId', '=', userId).orderBy('id').execute();

describe('automated reports', () => {
  it('makes one report per domain and period however often it runs, mails it with the PDF, and starts again next period', async () => {
    const user = await h.f.user('advanced');
    const scanned = await h.f.domain(user.id, { name: 'weekly-owner.example' });
    await h.f.completedScan(scanned.id, { score: 81 });
    await h.f.domain(user.id); // never scanned: nothing to report yet
    const deleted = await h.f.domain(user.id, { deleted: true });
    await h.f.completedScan(deleted.id);

    const now = new Date();
    const runs = await Promise.all([h.deps.services.automated.run(now), h.deps.services.automated.run(now)]);
    expect(runs.reduce((n, r) => n + r.created, 0)).toBe(1);
    await h.deps.services.automated.run(new Date(now.getTime() + 3_600_000 * 2));

    const mail = await smtp.waitFor((m) => m.to.includes(user.email), 30_000);
    expect(mail.subject).toBe('Your Sendwell report for weekly-owner.example: 81/100 (Excellent)');
    expect(mail.html).toContain('weekly-owner.example');
    const [attachment] = mail.raw.attachments;
    expect(attachment?.contentType).toBe('application/pdf');
    expect(attachment?.filename).toMatch(/^sendwell-weekly-owner\.example-\d{4}-\d{2}-\d{2}\.pdf$/);
    const file = join(scratch, 'mailed.pdf');
    writeFileSync(file, attachment!.content);
    expect(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })).toContain('weekly-owner.example');

    const rows = await waitFor(async () => {
      const r = await reportsOf(user.id);
      return r.every((x) => x.mailedAt !== null) ? r : null;
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ domainId: scanned.id, type: 'automated', status: 'completed', period: reportPeriod('weekly', now).key });
    expect(smtp.messages.filter((m) => m.to.includes(user.email))).toHaveLength(1);

    // The next week's run makes the next report.
    const nextWeek = new Date(reportPeriod('weekly', now).end.getTime() + 60_000);
    expect((await h.deps.services.automated.run(nextWeek)).created).toBe(1);
    expect(await reportsOf(user.id)).toHaveLength(2);
  }, 60_000);

  it('follows each plan: monthly for basic, fortnightly for standard, none for free', () => {
    const at = new Date('2026-11-24T10:00:00Z');
    expect(reportPeriod('monthly', at).key).toBe('monthly:2026-11');
    expect(reportPeriod('weekly', at).key).toBe('weekly:2026-11-23');
    const fortnight = reportPeriod('fortnightly', at);
    expect(fortnight.end.getTime() - fortnight.start.getTime()).toBe(14 * 86_400_000);
    expect(fortnight.start.getUTCDay()).toBe(1);
  });

  it('builds but does not mail when the owner turned report mails off, and makes none for the free plan', async () => {
    const quiet = await h.f.user('basic');
    await h.f.reportEmails(quiet.id, false);
    const d = await h.f.domain(quiet.id);
    await h.f.completedScan(d.id);
    const free = await h.f.user('free');
    const fd = await h.f.domain(free.id);
    await h.f.completedScan(fd.id);

    await h.deps.services.automated.run();
    const rows = await waitFor(async () => {
      const r = await reportsOf(quiet.id);
      return r.length === 1 && r[0]!.mailedAt !== null ? r : null;
    });
    expect(rows[0]).toMatchObject({ status: 'completed', type: 'automated' });
    expect(smtp.messages.some((m) => m.to.includes(quiet.email))).toBe(false);
    expect(await reportsOf(free.id)).toEqual([]);
  }, 30_000);

  it('skips a user at the quota and re-queues a pending report whose job was lost', async () => {
    const full = await h.f.user('basic');
    const d = await h.f.domain(full.id);
    await h.f.completedScan(d.id);
    await h.f.fillReports(full.id, d.id, 50);
    const outcome = await h.deps.services.automated.run();
    expect(outcome.atQuota).toBeGreaterThanOrEqual(1);
    expect((await reportsOf(full.id)).filter((r) => r.type === 'automated')).toEqual([]);

    // A pending row with no job (Redis lost it): the next run queues it again.
    const owner = await h.f.user('standard');
    const od = await h.f.domain(owner.id);
    await h.f.completedScan(od.id);
    const [lost] = await h.db
      .insertInto('reports')
      .values({ userId: owner.id, domainId: od.id, type: 'full', status: 'pending', data: JSON.stringify({ domainName: 'x', summary: 'x' }), updatedAt: new Date(Date.now() - 3_600_000) })
      .returning(['id'])
      .execute();
    expect((await h.deps.services.automated.run()).requeued).toBeGreaterThanOrEqual(1);
    await waitFor(async () => (await h.db.selectFrom('reports').select('status').where('id', '=', lost!.id).executeTakeFirst())?.status === 'completed');
  }, 30_000);
});
