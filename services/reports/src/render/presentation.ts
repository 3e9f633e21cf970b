/**
 * What every format prints the same way: labels, colours, number and date formats, and the trend
 * windows. The renderers differ in how they draw, never in what they say.
 */
import {
  EVIDENCE_SOURCE_LABELS,
  MAILBOX_PROVIDER_NAMES,
  REPORT_TREND_WINDOWS,
  coreCheckTypes,
  reportCheckTitles,
  reputationDetailLabel,
  type CheckStatus,
  type CheckType,
  type FindingSeverity,
  type ReportDocument,
  type ReportMailFlow,
  type ReportTrendPoint,
  type RequirementEvidence,
  type SenderRequirement,
  type SenderRequirements,
  type SenderRequirementStatus,
} from '@sendwell/contracts';

/** The trend charts draw the six core checks, which every stored scan has. */
const CHECK_ORDER: readonly CheckType[] = coreCheckTypes;

export const checkStatusLabel: Record<CheckStatus, string> = {
  valid: 'Pass',
  success: 'Pass',
  warning: 'Warning',
  error: 'Fail',
  missing: 'Missing',
  unknown: 'Unknown',
};

/** Chart rows: 3 pass, 2 warning, 1 unknown, 0 fail or missing. */
export const checkStatusLevel: Record<CheckStatus, number> = { valid: 3, success: 3, warning: 2, unknown: 1, error: 0, missing: 0 };

export const severityLabel: Record<FindingSeverity, string> = { error: 'Error', warning: 'Warning', info: 'Info' };

/** One palette for PDF and HTML (WCAG AA on white for the text colours). */
export const COLORS = {
  text: '#1f2937',
  muted: '#4b5563',
  border: '#d1d5db',
  accent: '#1d4ed8',
  pass: '#15803d',
  warning: '#b45309',
  fail: '#b91c1c',
  unknown: '#6b7280',
} as const;

export function statusColor(status: CheckStatus | string | null): string {
  switch (status) {
    case 'valid':
    case 'success':
    case 'healthy':
    case 'clean':
      return COLORS.pass;
    case 'warning':
      return COLORS.warning;
    case 'error':
    case 'missing':
    case 'critical':
    case 'listed':
      return COLORS.fail;
    default:
      return COLORS.unknown;
  }
}

export function domainStatusLabel(status: string): string {
  const known: Record<string, string> = { healthy: 'Healthy', warning: 'Warning', critical: 'Critical', pending: 'Pending' };
  return known[status] ?? 'Unknown';
}

export function scoreText(doc: ReportDocument): string {
  const { score } = doc.overall;
  return score === null ? 'No score yet' : `${score}/100 (${doc.overall.label ?? reputationDetailLabel(score)})`;
}

/** 2026-11-24 → 24 Nov 2026 (UTC, so a report reads the same wherever it is opened). */
export function formatDay(isoOrDay: string): string {
  const d = new Date(isoOrDay.length === 10 ? `${isoOrDay}T00:00:00Z` : isoOrDay);
  return d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  return `${formatDay(iso)} ${d.toISOString().slice(11, 16)} UTC`;
}

/** Points with one decimal at most: 5.2, 4. */
export function formatPoints(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

export interface TrendWindow {
  days: number;
  points: ReportTrendPoint[];
}

/** The 30- and 90-day windows (each the tail of the document's points), longest last. */
export function trendWindows(doc: ReportDocument): TrendWindow[] {
  if (!doc.trends) return [];
  const { points } = doc.trends;
  return REPORT_TREND_WINDOWS.map((days) => ({ days, points: points.slice(-days) }));
}

/** The overall status of a day as a check status, for the status charts' first row. */
function overallAsCheckStatus(status: string | null): CheckStatus | undefined {
  if (status === null) return undefined;
  return ({ healthy: 'valid', warning: 'warning', critical: 'error' } as const)[status as 'healthy'] ?? 'unknown';
}

/** The rows of the status charts: the domain's overall status, then each check. */
export const STATUS_ROWS: ReadonlyArray<{ label: string; statusOf: (p: ReportTrendPoint) => CheckStatus | undefined }> = [
  { label: 'Overall status', statusOf: (p) => overallAsCheckStatus(p.status) },
  ...CHECK_ORDER.map((type) => ({ label: reportCheckTitles[type], statusOf: (p: ReportTrendPoint) => p.checks[type] })),
];

/** The status charts' colours, each with its legend label; a day without a scan is its own grey. */
export const STATUS_GROUPS: ReadonlyArray<{ label: string; color: string; matches: (s: CheckStatus | undefined) => boolean }> = [
  { label: checkStatusLabel.valid, color: statusColor('valid'), matches: (s) => s === 'valid' || s === 'success' },
  { label: checkStatusLabel.warning, color: statusColor('warning'), matches: (s) => s === 'warning' },
  { label: checkStatusLabel.error, color: statusColor('error'), matches: (s) => s === 'error' || s === 'missing' },
  { label: checkStatusLabel.unknown, color: statusColor('unknown'), matches: (s) => s === 'unknown' },
  { label: 'No scan', color: '#e5e7eb', matches: (s) => s === undefined },
];

/** 12345 → 12,345. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-GB');
}

/** A share as a percentage with one decimal at most: 0.9752 → 97.5%; null → '-'. */
export function formatShare(share: number | null): string {
  return share === null ? '-' : `${formatPoints(Math.round(share * 1000) / 10)}%`;
}

/** The mail-flow section's one line: a summary report's only mention, the full section's opening. */
export function mailFlowLine(mf: ReportMailFlow): string {
  const days = Math.round((Date.parse(mf.to) - Date.parse(mf.from)) / 86_400_000) + 1;
  if (mf.messages === 0) return `Mail flow, last ${days} days: no messages reported.`;
  return `Mail flow, last ${days} days: ${formatCount(mf.messages)} messages reported, ${formatShare(mf.passRate)} passing DMARC.`;
}

/** The policy as receivers saw it published (`p=quarantine; sp=none; pct=50`), and who said so when. */
export function mailFlowPolicyParts(policy: NonNullable<ReportMailFlow['policy']>): { record: string; note: string } {
  const tags = [`p=${policy.p ?? '?'}`, ...(policy.sp ? [`sp=${policy.sp}`] : []), ...(policy.pct !== null ? [`pct=${policy.pct}`] : []), ...(policy.testing ? ['t=y'] : [])];
  return {
    record: tags.join('; '),
    note: `${policy.testing ? ' (testing: receivers apply one step less)' : ''}, reported by ${policy.reporter} for the period to ${formatDay(policy.reportedAt)}`,
  };
}

export function mailFlowPolicyText(policy: NonNullable<ReportMailFlow['policy']>): string {
  const { record, note } = mailFlowPolicyParts(policy);
  return `${record}${note}`;
}

/** The DMARC counts in one sentence. */
export function mailFlowCountsText(mf: ReportMailFlow): string {
  return `${formatCount(mf.dmarcPass)} passed DMARC, ${formatCount(mf.dmarcFail)} failed, ${formatCount(mf.forwarded)} forwarded (relayed by forwarders or lists, not counted as failures); from ${formatCount(mf.reports)} aggregate ${mf.reports === 1 ? 'report' : 'reports'}.`;
}

/** The TLS-RPT sessions in one sentence. */
export function tlsSessionsText(tls: NonNullable<ReportMailFlow['tls']>): string {
  return `${formatCount(tls.successfulSessions)} successful and ${formatCount(tls.failedSessions)} failed TLS sessions, from ${formatCount(tls.reports)} TLS-RPT ${tls.reports === 1 ? 'report' : 'reports'}.`;
}

export const requirementStatusLabel: Record<SenderRequirementStatus, string> = { met: 'Met', unmet: 'Not met', unknown: 'Unknown', not_measurable: 'Not measurable' };

/** The status pills' colours (white text on each passes WCAG AA). */
export function requirementStatusColor(status: SenderRequirementStatus | RequirementEvidence['status']): string {
  return { met: COLORS.pass, unmet: COLORS.fail, unknown: COLORS.unknown, not_measurable: COLORS.muted }[status];
}

/** The counts in one line: a summary report's only mention, the full section's opening. */
export function senderRequirementsLine(sr: SenderRequirements): string {
  const { met, unmet, unknown, not_measurable: notMeasurable } = sr.counts;
  return `Sender requirements (Gmail, Yahoo, Microsoft): ${met} met, ${unmet} not met, ${unknown} unknown, ${notMeasurable} not measurable.`;
}

export function senderRequirementsJudgedText(sr: SenderRequirements): string {
  return `Judged ${formatDateTime(sr.evaluatedAt)} from the DNS scan, the mail flow reports and the latest test message.`;
}

/** Each source with what it covered or why it gave nothing, in the contract's order. */
export function evidenceSourceLines(sr: SenderRequirements): Array<{ label: string; text: string }> {
  return (['dns', 'mail_flow', 'mail_test'] as const).map((source) => {
    const state = sr.sources[source];
    const text = state.state === 'used' ? `${state.summary} (${formatDay(state.observedAt)})` : state.summary;
    return { label: EVIDENCE_SOURCE_LABELS[source], text };
  });
}

/** "Asked by Gmail, Yahoo and Microsoft (Outlook.com)." */
export function requirementProvidersText(r: SenderRequirement): string {
  const names = r.providers.map((p) => MAILBOX_PROVIDER_NAMES[p]);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? 'no provider');
  return `Asked by ${list}.`;
}

/** One piece of evidence: its source and what was seen, then whether it meets the requirement and when. */
export function evidenceParts(ev: RequirementEvidence): { label: string; detail: string; note: string } {
  return { label: EVIDENCE_SOURCE_LABELS[ev.source], detail: ev.detail, note: `${ev.status === 'met' ? 'met' : 'not met'}, ${formatDay(ev.observedAt)}` };
}

export function evidenceText(ev: RequirementEvidence): string {
  const { label, detail, note } = evidenceParts(ev);
  return `${label}: ${detail} (${note})`;
}

/** What a requirement without evidence says instead. */
export function noEvidenceText(r: SenderRequirement): string {
  return r.status === 'not_measurable' ? 'Sendwell cannot measure this: only the mailbox providers see it.' : 'No evidence yet.';
}

/** What the fix line says: the fix when unmet, how to get evidence when unknown; null otherwise. */
export function requirementFixLabel(r: SenderRequirement): string | null {
  if (!r.fix) return null;
  if (r.status === 'unmet') return 'Fix';
  if (r.status === 'unknown') return 'To find out';
  return null;
}

/** The links' heading: the complaint rate is read at the providers, the rest is read about. */
export function requirementLinksLabel(r: SenderRequirement): string {
  return r.id === 'complaint_rate' ? 'Where to read it' : 'Read more';
}
