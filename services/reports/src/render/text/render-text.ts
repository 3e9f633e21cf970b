/**
 * The plain-text report: the same content as the others, wrapped at 78 columns, with underlined
 * headings and aligned tables; charts become a summary of each window.
 */
import type { ReportCheck, ReportDocument, ReportMailFlow, ReportTrendPoint, SenderRequirement, SenderRequirements } from '@sendwell/contracts';
import {
  checkStatusLabel,
  domainStatusLabel,
  formatCount,
  formatDateTime,
  formatPoints,
  formatShare,
  mailFlowCountsText,
  mailFlowLine,
  mailFlowPolicyText,
  evidenceText,
  evidenceSourceLines,
  noEvidenceText,
  requirementFixLabel,
  requirementLinksLabel,
  requirementProvidersText,
  requirementStatusLabel,
  senderRequirementsJudgedText,
  senderRequirementsLine,
  scoreText,
  severityLabel,
  STATUS_ROWS,
  tlsSessionsText,
  trendWindows,
} from '../presentation.js';

export const TEXT_WIDTH = 78;

export interface TextOptions {
  appUrl?: string;
}

/** Words wrapped to the width, continuation lines indented; a word longer than a line stays whole. */
export function wrap(text: string, indent = 0, first = indent): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = ' '.repeat(lines.length === 0 ? first : indent);
    let empty = true;
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (!empty && line.length + 1 + word.length > TEXT_WIDTH) {
        lines.push(line);
        line = ' '.repeat(indent);
        empty = true;
      }
      line += (empty ? '' : ' ') + word;
      empty = false;
    }
    lines.push(line);
  }
  return lines;
}

const heading = (text: string, char = '=') => ['', text, char.repeat(Math.min(TEXT_WIDTH, text.length))];

function columns(rows: string[][], widths: number[]): string[] {
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

function check(c: ReportCheck): string[] {
  const out = heading(`${c.title}: ${checkStatusLabel[c.status]} (${formatPoints(c.points.earned)} of ${c.points.max} points)`, '-');
  if (c.message) out.push(...wrap(c.message));
  for (const p of c.published) out.push(...wrap(`${p.label}: ${p.value}`, 4, 2));
  if (c.findings.length === 0) out.push('  No findings.');
  for (const f of c.findings) {
    out.push('', ...wrap(`[${severityLabel[f.severity]}] ${f.code}${f.rfc ? ` (${f.rfc})` : ''}`, 4, 2));
    out.push(...wrap(f.message, 4));
    if (f.fix) out.push(...wrap(`Fix: ${f.fix}`, 4));
  }
  return out;
}

function window(days: number, points: ReportTrendPoint[]): string[] {
  const scored = points.filter((p) => p.score !== null).map((p) => p.score!);
  const out = heading(`Last ${days} days`, '-');
  out.push(
    ...wrap(
      scored.length
        ? `Score from ${scored[0]} to ${scored.at(-1)}; lowest ${Math.min(...scored)}, highest ${Math.max(...scored)}; ${points.length - scored.length} days without a scan.`
        : 'No score in this window.',
    ),
  );
  const rows = STATUS_ROWS.map((r) => {
    const count = (match: (s: string | undefined) => boolean) => points.filter((p) => match(r.statusOf(p))).length;
    return [
      r.label,
      String(count((s) => s === 'valid' || s === 'success')),
      String(count((s) => s === 'warning')),
      String(count((s) => s === 'error' || s === 'missing')),
      String(count((s) => s === 'unknown')),
    ];
  });
  out.push('', ...columns([['Days per status', 'Pass', 'Warning', 'Fail', 'Unknown'], ...rows], [16, 5, 8, 5]));
  return out;
}

function mailFlow(mf: ReportMailFlow): string[] {
  const out = [...heading('Mail flow'), ...wrap(mailFlowLine(mf)), ...wrap(mailFlowCountsText(mf))];
  out.push('', ...wrap(mf.policy ? `Published DMARC policy: ${mailFlowPolicyText(mf.policy)}.` : 'Published DMARC policy: no aggregate report has said yet.'));
  out.push(...heading(`Top senders${mf.senderCount > mf.senders.length ? ` (${mf.senders.length} of ${mf.senderCount})` : ''}`, '-'));
  if (mf.senders.length === 0) out.push('No sender reported.');
  else {
    const nameWidth = Math.min(40, Math.max(6, ...mf.senders.map((s) => s.name.length)));
    const rows = mf.senders.map((s) => [s.name, formatCount(s.messages).padStart(10), formatShare(s.dmarcPass).padStart(10)]);
    out.push(...columns([['Sender', '  Messages', 'DMARC pass'], ...rows], [nameWidth, 10]));
  }
  out.push(...heading('TLS reporting (TLS-RPT)', '-'));
  if (!mf.tls) out.push(...wrap('No TLS-RPT report covers this window.'));
  else {
    out.push(...wrap(tlsSessionsText(mf.tls)));
    if (mf.tls.failures.length) {
      const typeWidth = Math.min(40, Math.max(12, ...mf.tls.failures.map((f) => f.resultType.length)));
      out.push('', ...columns([['Failure type', 'Sessions'], ...mf.tls.failures.map((f) => [f.resultType, formatCount(f.sessions)])], [typeWidth]));
    }
  }
  return out;
}

function requirement(r: SenderRequirement): string[] {
  const out = heading(`${r.title}: ${requirementStatusLabel[r.status]}`, '-');
  out.push(...wrap(`${requirementProvidersText(r)} ${r.description}`));
  if (r.evidence.length === 0) out.push(...wrap(noEvidenceText(r), 4, 2));
  for (const ev of r.evidence) out.push(...wrap(evidenceText(ev), 4, 2));
  const fixLabel = requirementFixLabel(r);
  if (fixLabel && r.fix) out.push(...wrap(`${fixLabel}: ${r.fix}`, 4, 2));
  if (r.links.length) {
    out.push(`  ${requirementLinksLabel(r)}:`);
    for (const l of r.links) out.push(...wrap(`${l.label}: ${l.url}`, 6, 4));
  }
  return out;
}

function senderRequirements(sr: SenderRequirements): string[] {
  const out = [...heading('Sender requirements'), ...wrap(senderRequirementsLine(sr)), ...wrap(senderRequirementsJudgedText(sr)), ''];
  for (const s of evidenceSourceLines(sr)) out.push(...wrap(`${s.label}: ${s.text}`, 4, 2));
  for (const r of sr.requirements) out.push(...requirement(r));
  return out;
}

export function renderText(doc: ReportDocument, options: TextOptions = {}): string {
  const out: string[] = [];
  out.push(`SENDWELL ${doc.kind === 'full' ? 'EMAIL DELIVERABILITY REPORT' : 'EMAIL DELIVERABILITY SUMMARY'}`, '', ...wrap(doc.domain.name));
  out.push(`Generated ${formatDateTime(doc.generatedAt)}`, doc.scan ? `From the scan of ${formatDateTime(doc.scan.completedAt)}` : 'No completed scan yet');
  out.push('', `Reputation score: ${scoreText(doc)}`, `Status: ${domainStatusLabel(doc.overall.status)}`);
  if (doc.overall.trend && doc.overall.previousScore !== null) out.push(`Trend: ${doc.overall.trend} (previously ${doc.overall.previousScore})`);
  const b = doc.overall.breakdown;
  if (b) {
    out.push(
      '',
      ...columns(
        [
          ['Email authentication', `${formatPoints(b.emailAuthentication.score)} / ${b.emailAuthentication.max}`],
          ['Security and deliverability', `${formatPoints(b.securityDeliverability.score)} / ${b.securityDeliverability.max}`],
          ['Configuration health', `${formatPoints(b.configurationHealth.score)} / ${b.configurationHealth.max}`],
        ],
        [28],
      ),
    );
  }
  out.push('', ...wrap(doc.summary));
  if (doc.kind !== 'full' && doc.mailFlow) out.push('', ...wrap(mailFlowLine(doc.mailFlow)));
  if (doc.kind !== 'full' && doc.senderRequirements) out.push('', ...wrap(senderRequirementsLine(doc.senderRequirements)));

  out.push(...heading(doc.kind === 'full' ? 'Action plan' : 'What to fix first'));
  if (doc.actions.length === 0) out.push('Nothing to fix: every check passes.');
  for (const a of doc.actions) {
    out.push('', ...wrap(`${a.rank}. ${a.title} (+${formatPoints(a.expectedGain)} points)`, 3, 0), ...wrap(a.detail, 3));
    if (a.guidePath && options.appUrl) out.push(`   Guide: ${options.appUrl}${a.guidePath}`);
  }

  if (doc.checks.length) {
    out.push(...heading('Checks'));
    for (const c of doc.checks) out.push(...check(c));
  }
  if (doc.blacklist) {
    const bl = doc.blacklist;
    out.push(...heading('Blacklists'), `${bl.counts.listed} listed, ${bl.counts.clean} clean, ${bl.counts.unknown} unknown of ${bl.lists.length} lists checked.`, '');
    const nameWidth = Math.min(30, Math.max(4, ...bl.lists.map((l) => l.name.length)));
    out.push(...columns([['List', 'Status', 'Removal'], ...bl.lists.map((l) => [l.name, l.status === 'listed' ? 'Listed' : l.status === 'clean' ? 'Clean' : 'Unknown', l.removalUrl ?? '-'])], [nameWidth, 8]));
    if (bl.addresses.length) {
      out.push('');
      for (const a of bl.addresses) out.push(...wrap(`${a.ip}${a.source ? ` (${a.source})` : ''}: ${a.listedOn.length ? `listed on ${a.listedOn.map((l) => l.list).join(', ')}` : 'not listed'}`, 4, 2));
    }
  }
  if (doc.kind === 'full' && doc.mailFlow) out.push(...mailFlow(doc.mailFlow));
  if (doc.kind === 'full' && doc.senderRequirements) out.push(...senderRequirements(doc.senderRequirements));
  if (doc.trends) {
    out.push(...heading('Trends'), `${doc.trends.scansInWindow} scans in the last ${doc.trends.days} days.`);
    for (const w of trendWindows(doc)) out.push(...window(w.days, w.points));
    out.push(...heading('DNS changes', '-'));
    if (doc.trends.dnsChanges.length === 0) out.push(`No DNS change in the last ${doc.trends.days} days.`);
    for (const c of doc.trends.dnsChanges) out.push(`${formatDateTime(c.at)}, ${c.record}:`, ...wrap(c.summary, 4, 4));
  }
  out.push('', ...wrap(`Report ${doc.reportId}, schema version ${doc.schemaVersion}. Generated by Sendwell from stored scan results.`));
  return `${out.join('\n')}\n`;
}
