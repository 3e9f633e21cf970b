import { randomInt } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { JobName, mailTestAnalysisSchema, mailTestChannel, refreshSenderRequirementsJobOptions, type MailTestSession } from '@sendwell/contracts';
import { sql } from '@sendwell/db';
import { arrivals, testRedisUrl } from '@sendwell/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_TEST_ERRORS } from '../../src/workers/analyse-mail-test.handler.js';
import { useQueueTestScanner } from '../queue/harness.js';
import { waitUntil } from '../queue/wait.js';
import { MAX_MIME_PARTS } from '../../src/mail-test/parse-message.js';
import { buildMessage, nestedMultipart, ONE_CLICK_HEADERS, SENT_AT } from './messages/build-message.js';

// Only the test block lists are asked: the fixture DNS answers them, and no default list's name is queried.
const ctx = useQueueTestScanner('mail-test-handler', { DNSBL_IP_ZONES: 'ips.test', DNSBL_DOMAIN_ZONES: 'dbl.test' });

/** Status messages published per channel by the scanner, read through a second connection as the intake does. */
const published = arrivals<{ channel: string; message: unknown }>();
let subscriber: Redis;

beforeAll(async () => {
  ctx.dns.setName('listed.example.dbl.test', { A: ['127.0.0.2'] });
  // Test ids start at a random point: pub/sub channels are not prefixed, and other test files share the Redis server.
  await sql`alter table inbox_placement_tests alter column id restart with ${sql.lit(randomInt(1_000_000, 1_000_000_000))}`.execute(ctx.testDb.db);
  subscriber = new Redis(testRedisUrl(), { lazyConnect: true });
  await subscriber.connect();
  subscriber.on('pmessage', (_pattern: string, channel: string, message: string) => published.push({ channel, message: JSON.parse(message) as unknown }));
  await subscriber.psubscribe('mail-test:*');
});
afterAll(async () => {
  await subscriber?.quit();
});

const session: MailTestSession = {
  clientAddress: '192.0.2.25',
  helo: 'mx.example',
  mailFrom: 'bounce@example.com',
  rcptTo: ['test-abcdefghijklmnopqrstuvwx@intake.sendwell.test'],
  tls: { protocol: 'TLSv1.3', cipher: 'TLS_AES_256_GCM_SHA384' },
  receivedAt: new Date(SENT_AT.getTime() + 2_000).toISOString(),
  sizeBytes: 0,
};

async function receivedTest(fields: { rawGz?: Buffer; session?: unknown; status?: string; userId?: number; from?: string } = {}) {
  const userId = fields.userId ?? (await ctx.f.user('advanced'));
  const raw = buildMessage({
    ...(fields.from !== undefined ? { from: fields.from } : {}),
    headers: ONE_CLICK_HEADERS,
    html: `<p>${'Our news of the month, with what changed and what comes next. '.repeat(4)}</p><a href="https://www.listed.example/offer">The offer</a>`,
  });
  const row = await ctx.testDb.db
    .insertInto('inboxPlacementTests')
    .values({
      userId,
      testId: `t${randomInt(1e9)}`.padEnd(24, '0'),
      status: fields.status ?? 'received',
      expiresAt: new Date(Date.now() + 3600_000),
      receivedAt: new Date(session.receivedAt),
      session: JSON.stringify(fields.session ?? { ...session, sizeBytes: raw.length }),
      rawGz: fields.rawGz ?? gzipSync(raw),
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();
  return row.id;
}

const testRow = (id: number) =>
  ctx.testDb.db
    .selectFrom('inboxPlacementTests')
    .select(['status', 'results', 'score', 'fromEmail', 'subject', 'error', 'attempts', 'completedAt', 'domainId', 'rawGz'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const publishedOn = (id: number) => published.items.filter((item) => item.channel === mailTestChannel(id)).map((item) => item.message);

describe('the analyse-mail-test job', () => {
  it('reads a received test message, stores its analysis and score, and publishes that it is done', async () => {
    const id = await receivedTest();
    await ctx.deps.queues.scan.add(JobName.AnalyseMailTest, { testId: id }, { jobId: `mail-test-${id}`, attempts: 1 });
    ctx.workers.push(ctx.deps.startWorker());
    await published.waitFor((item) => item.channel === mailTestChannel(id), 30_000, () => `nothing published for test ${id}`);

    const row = await testRow(id);
    // The user has no domain example.com: the test is filed under none.
    // The message itself is not kept once judged.
    expect(row).toMatchObject({ status: 'done', fromEmail: 'news@example.com', subject: 'Our November news', error: null, attempts: 1, domainId: null, rawGz: null });
    expect(row.completedAt).toBeInstanceOf(Date);
    const analysis = mailTestAnalysisSchema.parse(row.results);
    expect(Number(row.score)).toBe(analysis.score.value);
    // The score is the arithmetic the screen shows.
    const deducted = analysis.score.deductions.reduce((sum, d) => sum + Math.round(d.points * 10), 0);
    expect(analysis.score.value).toBe(Math.max(0, 100 - deducted) / 10);
    expect(analysis.score.deductions).toEqual(analysis.findings.filter((f) => f.points > 0).map((f) => ({ code: f.code, points: f.points })));
    // Errors, then warnings, then information.
    const ranks = analysis.findings.map((f) => ['error', 'warning', 'info'].indexOf(f.severity));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));

    expect(analysis.headers).toMatchObject({ from: 'news@example.com', fromDomain: 'example.com', messageId: '<20261127093000.abc123@example.com>' });
    expect(analysis.content.links).toEqual([expect.objectContaining({ host: 'www.listed.example', blocklisted: true })]);
    expect(analysis.findings.find((f) => f.code === 'LINK_DOMAIN_BLOCKLISTED')).toMatchObject({ group: 'content', points: 2 });
    expect(analysis.connection).toMatchObject({ clientAddress: '192.0.2.25', helo: 'mx.example', tls: { used: true, protocol: 'TLSv1.3' } });
    // The message is not signed, so one-click unsubscribe does not count (RFC 8058 §4).
    expect(analysis.headers.listUnsubscribe.oneClick).toBe(false);
    expect(analysis.findings.map((f) => f.code)).toContain('UNSUBSCRIBE_NOT_SIGNED');
    expect(publishedOn(id)).toEqual([{ status: 'done' }]);
  });

  it('fails a test whose stored message is damaged, with a plain reason, and publishes it', async () => {
    const id = await receivedTest({ rawGz: Buffer.from('not a gzip stream') });
    await ctx.deps.queues.scan.add(JobName.AnalyseMailTest, { testId: id }, { jobId: `mail-test-${id}`, attempts: 3 });
    ctx.workers.push(ctx.deps.startWorker());
    await published.waitFor((item) => item.channel === mailTestChannel(id), 30_000, () => `nothing published for test ${id}`);
    expect(await testRow(id)).toMatchObject({ status: 'failed', error: MAIL_TEST_ERRORS.damaged, attempts: 1, score: null, rawGz: null });
    expect(publishedOn(id)).toEqual([{ status: 'failed' }]);
    // Unrecoverable: one attempt of three.
    expect((await ctx.deps.queues.scan.getJob(`mail-test-${id}`))?.attemptsMade).toBe(1);
  });

  it('fails a test whose message is not readable MIME, at once', async () => {
    const id = await receivedTest({ rawGz: gzipSync(nestedMultipart(MAX_MIME_PARTS + 1)) });
    await ctx.deps.queues.scan.add(JobName.AnalyseMailTest, { testId: id }, { jobId: `mail-test-${id}`, attempts: 3 });
    ctx.workers.push(ctx.deps.startWorker());
    await published.waitFor((item) => item.channel === mailTestChannel(id), 30_000, () => `nothing published for test ${id}`);
    expect(await testRow(id)).toMatchObject({ status: 'failed', error: MAIL_TEST_ERRORS.unreadable, attempts: 1 });
    expect(publishedOn(id)).toEqual([{ status: 'failed' }]);
  });

  it('fails a test whose session is not a session, without counting an analysis', async () => {
    const id = await receivedTest({ session: { clientAddress: 42 } });
    await ctx.deps.queues.scan.add(JobName.AnalyseMailTest, { testId: id }, { jobId: `mail-test-${id}`, attempts: 3 });
    ctx.workers.push(ctx.deps.startWorker());
    await published.waitFor((item) => item.channel === mailTestChannel(id), 30_000, () => `nothing published for test ${id}`);
    expect(await testRow(id)).toMatchObject({ status: 'failed', error: MAIL_TEST_ERRORS.damaged, attempts: 0 });
  });

  it('leaves a test that is not waiting for its analysis alone', async () => {
    const id = await receivedTest({ status: 'done' });
    const missing = id + 1_000;
    await ctx.deps.queues.scan.add(JobName.AnalyseMailTest, { testId: id }, { jobId: `mail-test-${id}` });
    await ctx.deps.queues.scan.add(JobName.AnalyseMailTest, { testId: missing }, { jobId: `mail-test-${missing}` });
    ctx.workers.push(ctx.deps.startWorker());
    await waitUntil(async () => (await ctx.deps.queues.scan.getJobCounts('completed')).completed === 2, { what: 'both jobs completed' });
    expect((await ctx.deps.queues.scan.getJob(`mail-test-${id}`))?.returnvalue).toEqual({ skipped: 'status-done' });
    expect((await ctx.deps.queues.scan.getJob(`mail-test-${missing}`))?.returnvalue).toEqual({ skipped: 'missing-test' });
    expect(await testRow(id)).toMatchObject({ status: 'done', attempts: 0, results: {} });
    expect(publishedOn(id)).toEqual([]);
  });
});

describe("a test message's domain", () => {
  it("files the test under its user's domain of the From domain (exact, else the longest parent; never a deleted or another user's one) and queues that domain's sender requirements", async () => {
    const [userId, otherUserId] = [await ctx.f.user('advanced'), await ctx.f.user('advanced')];
    const own = async (name: string, deleted = false) => (await ctx.f.domain({ userId, name, deleted })).id;
    const sender = await own('sender.example');
    const euSender = await own('eu.sender.example');
    const shared = await own('shared.example');
    await own('old.sender.example', true);
    await own('ender.example');
    await ctx.f.domain({ userId: otherUserId, name: 'shared.example' });
    await ctx.f.domain({ userId: otherUserId, name: 'elsewhere.example' });
    const cases: Array<[from: string, domainId: number | null]> = [
      ['news@sender.example', sender],
      // A parent, and not ender.example, whose name only ends the same way.
      ['news@mail.sender.example', sender],
      ['news@x.eu.sender.example', euSender],
      ['news@old.sender.example', sender],
      ['news@shared.example', shared],
      ['news@elsewhere.example', null],
    ];
    const ids = await Promise.all(cases.map(([from]) => receivedTest({ userId, from: `News <${from}>` })));
    for (const id of ids) await ctx.deps.queues.scan.add(JobName.AnalyseMailTest, { testId: id }, { jobId: `mail-test-${id}`, attempts: 1 });
    ctx.workers.push(ctx.deps.startWorker());
    for (const id of ids) await published.waitFor((item) => item.channel === mailTestChannel(id), 30_000, () => `nothing published for test ${id}`);

    const rows = await Promise.all(ids.map(testRow));
    expect(rows.map((row) => [row.fromEmail, row.domainId])).toEqual(cases.map(([from, domainId]) => [from, domainId]));
    // One waiting refresh per domain however many tests it took (the job options deduplicate), none for another user's.
    const queued = (await ctx.deps.queues.intake.getJobs(['waiting'])).filter((job) => job.name === JobName.RefreshSenderRequirements);
    const byId = (a: number, b: number) => a - b;
    expect(queued.map((job) => job.data.domainId).sort(byId)).toEqual([sender, euSender, shared].sort(byId));
    expect(queued.map((job) => job.opts.deduplication)).toContainEqual(refreshSenderRequirementsJobOptions(sender).deduplication);
  });
});
