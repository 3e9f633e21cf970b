import { mailTestAddressOf, mailTestAnalysisSchema, mailTestSessionSchema, type MailTest, type MailTestStatus, type MailTestSummary } from '@sendwell/contracts';
import type { MailTestRow } from './mail-test.repository.js';

/** Expired is not stored: it is a test still waiting once its hour is over. */
export function mailTestStatusOf(row: Pick<MailTestRow, 'status' | 'expiresAt'>, now = new Date()): MailTestStatus {
  if (row.status === 'waiting') return row.expiresAt <= now ? 'expired' : 'waiting';
  return row.status as MailTestStatus;
}

/** Nothing more will happen to a test in these states (its event stream ends). */
export function isMailTestSettled(status: MailTestStatus): boolean {
  return status === 'done' || status === 'failed' || status === 'expired';
}

export function toMailTestSummary(row: MailTestRow, intakeDomain: string, now = new Date()): MailTestSummary {
  return {
    id: row.id,
    address: mailTestAddressOf(row.testId, intakeDomain),
    status: mailTestStatusOf(row, now),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    receivedAt: row.receivedAt?.toISOString() ?? null,
    fromAddress: row.fromEmail,
    subject: row.subject,
    // numeric(3, 1) arrives as a string.
    score: row.score === null ? null : Number(row.score),
  };
}

export function toMailTest(row: MailTestRow, intakeDomain: string, now = new Date()): MailTest {
  const summary = toMailTestSummary(row, intakeDomain, now);
  // The jsonb columns are written by two services: what does not read as the contract is left out rather than answered half-formed.
  const session = mailTestSessionSchema.safeParse(row.session);
  const analysis = summary.status === 'done' ? mailTestAnalysisSchema.safeParse(row.results) : null;
  return {
    ...summary,
    session: session.success ? session.data : null,
    analysis: analysis?.success ? analysis.data : null,
    error: row.error,
  };
}
