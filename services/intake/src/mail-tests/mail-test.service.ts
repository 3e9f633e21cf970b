import {
  features,
  MAIL_TEST_PLAN_MESSAGE,
  MAIL_TEST_RETENTION_DAYS,
  MAIL_TEST_TTL_MINUTES,
  mailTestQuotaMessage,
  mailTestsPerDay,
  type ListMailTestsAnswer,
  type MailTest,
  type MailTestSummary,
} from '@sendwell/contracts';
import { forbidden, notFound, rateLimited } from '@sendwell/server-kit';
import { newMailTestToken } from '../addresses/mail-test-address.js';
import { toMailTest, toMailTestSummary } from './mail-test.mapper.js';
import type { MailTestRepository } from './mail-test.repository.js';

export const MAIL_TEST_NOT_FOUND = 'Inbox test not found';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export interface MailTestUser {
  id: number;
  planType: string;
}

/** The start of the UTC day `now` is in: the daily quota counts from there. */
export function utcDayStart(now: Date): Date {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
}

/** Inbox tests of the caller. Every call: plan first (403), then ownership (404, even for another user's test). */
export class MailTestService {
  constructor(
    private readonly tests: MailTestRepository,
    private readonly intakeDomain: string,
  ) {}

  private requirePlan(user: MailTestUser): void {
    if (!features.inboxPlacement(user.planType)) throw forbidden(MAIL_TEST_PLAN_MESSAGE, { requiresUpgrade: true });
  }

  /** A new test address, open for MAIL_TEST_TTL_MINUTES; 429 past the plan's tests of the (UTC) day. */
  async create(user: MailTestUser, now = new Date()): Promise<MailTestSummary> {
    this.requirePlan(user);
    const quota = mailTestsPerDay(user.planType);
    const dayStart = utcDayStart(now);
    const row = await this.tests.createWithinQuota({ userId: user.id, token: newMailTestToken(), createdAt: now, expiresAt: new Date(now.getTime() + MAIL_TEST_TTL_MINUTES * MINUTE_MS), dayStart, quota });
    if (!row) throw rateLimited(mailTestQuotaMessage(quota), Math.ceil((dayStart.getTime() + DAY_MS - now.getTime()) / 1000));
    return toMailTestSummary(row, this.intakeDomain, now);
  }

  /** The tests of the last MAIL_TEST_RETENTION_DAYS, newest first, and today's quota. */
  async list(user: MailTestUser, now = new Date()): Promise<ListMailTestsAnswer> {
    this.requirePlan(user);
    const [rows, used] = await Promise.all([
      this.tests.listSince(user.id, new Date(now.getTime() - MAIL_TEST_RETENTION_DAYS * DAY_MS)),
      this.tests.countSince(user.id, utcDayStart(now)),
    ]);
    return { tests: rows.map((row) => toMailTestSummary(row, this.intakeDomain, now)), quota: { used, limit: mailTestsPerDay(user.planType) } };
  }

  async get(user: MailTestUser, id: number, now = new Date()): Promise<MailTest> {
    this.requirePlan(user);
    const row = await this.tests.findOwned(user.id, id);
    if (!row) throw notFound(MAIL_TEST_NOT_FOUND);
    return toMailTest(row, this.intakeDomain, now);
  }
}
