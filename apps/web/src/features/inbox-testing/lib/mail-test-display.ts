import { mailTestGroups, type FindingSeverity, type MailTestAnalysis, type MailTestFinding, type MailTestGroup, type MailTestStatus, type MailTestSummary } from '@sendwell/contracts';
import type { BadgeVariant } from '@/lib/display';

export const WAITING_TEXT = 'Waiting for your message…';
export const RECEIVED_TEXT = 'Received, reading…';
export const EXPIRED_TEXT = 'Nothing arrived within the hour, so this address is closed.';

export const statusLabel: Record<MailTestStatus, string> = {
  waiting: 'Waiting',
  received: 'Reading',
  done: 'Done',
  failed: 'Failed',
  expired: 'Expired',
};
export const statusBadge: Record<MailTestStatus, BadgeVariant> = {
  waiting: 'outline',
  received: 'outline',
  done: 'secondary',
  failed: 'destructive',
  expired: 'outline',
};

/** The statuses after which nothing changes any more: the events stream ends on them. */
export function isFinished(status: MailTestStatus): boolean {
  return status === 'done' || status === 'failed' || status === 'expired';
}

export const groupTitle: Record<MailTestGroup, string> = {
  connection: 'Connection',
  authentication: 'Authentication',
  headers: 'Headers',
  content: 'Content',
};

const severityOrder: Record<FindingSeverity, number> = { error: 0, warning: 1, info: 2 };
export const severityLabel: Record<FindingSeverity, string> = { error: 'Problem', warning: 'Warning', info: 'Note' };

/**
 * The findings under the four groups, always in the same order (connection, authentication, headers,
 * content) and, inside each, problems before warnings before notes, so the costliest fix reads first.
 */
export function groupFindings(findings: readonly MailTestFinding[]): { group: MailTestGroup; findings: MailTestFinding[] }[] {
  return mailTestGroups.map((group) => ({
    group,
    findings: findings.filter((f) => f.group === group).sort((a, b) => severityOrder[a.severity] - severityOrder[b.severity] || b.points - a.points),
  }));
}

/** A score or a deduction with at most one decimal: 7.5, 8, 0.3. */
export function points(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1);
}

export const scoreText = (value: number) => `${points(value)}/10`;

/**
 * The arithmetic behind the score, e.g. "10 − 2 (SPF fails) − 0.5 (No List-Unsubscribe) = 7.5": each
 * deduction named by its finding's title (its code when no finding carries it). The score never goes
 * below 0, and the sentence says so when the deductions add up to more than 10.
 */
export function scoreArithmetic(analysis: Pick<MailTestAnalysis, 'score' | 'findings'>): string {
  const { value, deductions } = analysis.score;
  const taken = deductions.filter((d) => d.points > 0);
  if (taken.length === 0) return `10, nothing taken off = ${points(value)}`;
  const titleOf = (code: string) => analysis.findings.find((f) => f.code === code)?.title ?? code;
  const terms = taken.map((d) => `− ${points(d.points)} (${titleOf(d.code)})`).join(' ');
  const total = taken.reduce((sum, d) => sum + d.points, 0);
  const floor = total > 10 ? ' (a score stops at 0)' : '';
  return `10 ${terms} = ${points(value)}${floor}`;
}

/** "14:35" in the user's time zone, 24-hour. */
export function clockTime(value: string | number | Date, timeZone = 'UTC'): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(value));
}

/** "Open until 14:35 (57 min left)" while the address takes mail, "Closed at 14:35" after. */
export function openUntilText(expiresAt: string, now: number, timeZone = 'UTC'): string {
  const until = clockTime(expiresAt, timeZone);
  const leftMs = Date.parse(expiresAt) - now;
  if (leftMs <= 0) return `Closed at ${until}`;
  const minutes = Math.ceil(leftMs / 60_000);
  return `Open until ${until} (${minutes} min left)`;
}

/** A past test by what the user recognises: the message's subject, else the address it was sent to. */
export function pastTestTitle(test: Pick<MailTestSummary, 'subject' | 'address'>): string {
  return test.subject?.trim() || test.address;
}

export function quotaText({ used, limit }: { used: number; limit: number }): string {
  return `${Math.min(used, limit)} of ${limit} ${limit === 1 ? 'test' : 'tests'} used today`;
}

type Verdict = 'pass' | 'fail' | 'softfail' | 'neutral' | 'none' | 'permerror' | 'temperror' | 'policy' | 'skipped' | 'declined';

/** Pass reads as good, none/neutral as absent, anything else as a failure to look at. */
export function verdictBadge(result: Verdict): BadgeVariant {
  if (result === 'pass') return 'secondary';
  if (result === 'none' || result === 'neutral' || result === 'skipped' || result === 'declined') return 'outline';
  return 'destructive';
}

type Link = MailTestAnalysis['content']['links'][number];

/** What is wrong with a link, in words; empty when nothing is. */
export function linkFlags(link: Link): string[] {
  const flags: string[] = [];
  if (link.plainHttp) flags.push('plain HTTP');
  if (link.shortener) flags.push('URL shortener');
  if (link.textMismatch) flags.push('text shows another address');
  if (link.blocklisted) flags.push('on a domain block list');
  return flags;
}

export function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${points(bytes / 1024)} KB`;
  return `${points(bytes / (1024 * 1024))} MB`;
}

export const yesNo = (value: boolean) => (value ? 'Yes' : 'No');
