/**
 * The PDF: A4, Inter embedded, a document outline, page numbers, real tables and vector charts. One
 * pass over the document model; `bufferPages` lets the footer write "Page N of M" at the end.
 */
import { reportCheckTitles, type ReportCheck, type ReportDocument, type ReportMailFlow, type SenderRequirement, type SenderRequirements } from '@sendwell/contracts';
import PDFDocument from 'pdfkit';
import {
  checkStatusLabel,
  COLORS,
  domainStatusLabel,
  formatCount,
  formatDateTime,
  formatDay,
  formatPoints,
  formatShare,
  mailFlowCountsText,
  mailFlowLine,
  mailFlowPolicyText,
  evidenceParts,
  evidenceSourceLines,
  noEvidenceText,
  requirementFixLabel,
  requirementLinksLabel,
  requirementProvidersText,
  requirementStatusColor,
  requirementStatusLabel,
  senderRequirementsJudgedText,
  senderRequirementsLine,
  tlsSessionsText,
  scoreText,
  severityLabel,
  statusColor,
  trendWindows,
} from '../presentation.js';
import { scoreChart, statusStrips } from './charts.js';
import { reportFonts } from './fonts.js';
import { bar, CONTENT_WIDTH, ensureSpace, FONT, heading, PAGE, paragraph, pill, type Doc } from './layout.js';
import { table } from './table.js';

export interface PdfOptions {
  /** Origin of the app, for links to fixing guides. */
  appUrl?: string;
}

const SEVERITY_COLOR = { error: COLORS.fail, warning: COLORS.warning, info: COLORS.muted } as const;

function cover(doc: Doc, report: ReportDocument): void {
  doc.font(FONT.bold).fontSize(10).fillColor(COLORS.accent).text('SENDWELL', PAGE.margin, PAGE.margin);
  doc.moveDown(1.5);
  doc.font(FONT.regular).fontSize(12).fillColor(COLORS.muted).text(report.kind === 'full' ? 'Email deliverability report' : 'Email deliverability summary');
  doc.font(FONT.bold).fontSize(26).fillColor(COLORS.text).text(report.domain.name, { width: CONTENT_WIDTH });
  doc.font(FONT.regular).fontSize(10).fillColor(COLORS.muted).text(`Generated ${formatDateTime(report.generatedAt)}`);
  doc.text(report.scan ? `From the scan of ${formatDateTime(report.scan.completedAt)}` : 'No completed scan yet');
  doc.moveDown(1.2);

  const top = doc.y;
  doc.font(FONT.bold).fontSize(44).fillColor(report.overall.score === null ? COLORS.muted : statusColor(report.overall.status));
  doc.text(report.overall.score === null ? '-' : String(report.overall.score), PAGE.margin, top, { width: 110, lineBreak: false });
  doc.font(FONT.regular).fontSize(10).fillColor(COLORS.muted).text('Reputation score / 100', PAGE.margin, top + 52, { width: 120 });
  const labelY = top + 4;
  doc.font(FONT.bold).fontSize(14).fillColor(COLORS.text).text(scoreText(report), PAGE.margin + 130, labelY, { width: CONTENT_WIDTH - 130 });
  pill(doc, domainStatusLabel(report.overall.status), PAGE.margin + 130, labelY + 24, statusColor(report.overall.status));
  if (report.overall.trend && report.overall.previousScore !== null) {
    doc.font(FONT.regular).fontSize(9).fillColor(COLORS.muted).text(`Trend: ${report.overall.trend} (previously ${report.overall.previousScore})`, PAGE.margin + 210, labelY + 27, { lineBreak: false });
  }
  doc.y = top + 80;
  doc.x = PAGE.margin;

  const breakdown = report.overall.breakdown;
  if (breakdown) {
    const parts = [
      ['Email authentication', breakdown.emailAuthentication],
      ['Security and deliverability', breakdown.securityDeliverability],
      ['Configuration health', breakdown.configurationHealth],
    ] as const;
    for (const [label, part] of parts) {
      const y = doc.y;
      doc.font(FONT.regular).fontSize(10).fillColor(COLORS.text).text(label, PAGE.margin, y, { width: 170, lineBreak: false });
      bar(doc, PAGE.margin + 175, y + 2, 240, part.score, part.max, COLORS.accent);
      doc.font(FONT.bold).fontSize(10).fillColor(COLORS.text).text(`${formatPoints(part.score)} / ${part.max}`, PAGE.margin + 425, y, { width: 70, lineBreak: false });
      doc.y = y + 18;
    }
    doc.x = PAGE.margin;
  }
  doc.moveDown(0.8);
  paragraph(doc, report.summary, { size: 11 });
  // A summary mentions mail flow in one line; the full report has its own section.
  if (report.kind !== 'full' && report.mailFlow) {
    doc.moveDown(0.4);
    paragraph(doc, mailFlowLine(report.mailFlow), { size: 10 });
  }
  if (report.kind !== 'full' && report.senderRequirements) {
    doc.moveDown(0.4);
    paragraph(doc, senderRequirementsLine(report.senderRequirements), { size: 10 });
  }
}

function actions(doc: Doc, report: ReportDocument, appUrl: string | undefined): void {
  heading(doc, report.kind === 'full' ? 'Action plan' : 'What to fix first');
  if (report.actions.length === 0) {
    paragraph(doc, 'Nothing to fix: every check passes.', { color: COLORS.muted });
    return;
  }
  table(
    doc,
    [
      { header: '#', width: 4 },
      { header: 'Action', width: 66 },
      { header: 'Expected gain', width: 15 },
      { header: 'Guide', width: 15 },
    ],
    report.actions.map((a) => [
      { text: String(a.rank), bold: true },
      { title: a.title, text: a.detail, color: COLORS.muted },
      { text: `+${formatPoints(a.expectedGain)} points`, bold: true, color: COLORS.pass },
      a.guidePath && appUrl ? { text: 'Fixing guide', link: `${appUrl}${a.guidePath}`, color: COLORS.accent } : { text: '-', color: COLORS.muted },
    ]),
    CONTENT_WIDTH,
  );
}

function check(doc: Doc, c: ReportCheck): void {
  ensureSpace(doc, 90);
  const y = doc.y + 8;
  doc.font(FONT.bold).fontSize(13).fillColor(COLORS.text).text(c.title, PAGE.margin, y, { lineBreak: false });
  const titleWidth = doc.widthOfString(c.title);
  pill(doc, checkStatusLabel[c.status], PAGE.margin + titleWidth + 10, y + 1, statusColor(c.status), 8);
  doc.font(FONT.regular).fontSize(9).fillColor(COLORS.muted).text(`${formatPoints(c.points.earned)} of ${c.points.max} points`, PAGE.margin, y + 2, { width: CONTENT_WIDTH, align: 'right' });
  doc.y = y + 20;
  doc.x = PAGE.margin;
  if (c.message) paragraph(doc, c.message, { color: COLORS.muted });
  for (const row of c.published) {
    doc.moveDown(0.2);
    paragraph(doc, row.label, { size: 8, bold: true, color: COLORS.muted });
    paragraph(doc, row.value, { size: 8.5 });
  }
  if (c.findings.length === 0) {
    doc.moveDown(0.3);
    paragraph(doc, 'No findings.', { color: COLORS.muted, size: 9 });
  }
  for (const f of c.findings) {
    ensureSpace(doc, 50);
    doc.moveDown(0.5);
    const fy = doc.y;
    doc.rect(PAGE.margin, fy, 2.5, 10).fill(SEVERITY_COLOR[f.severity]);
    doc.font(FONT.bold).fontSize(9).fillColor(SEVERITY_COLOR[f.severity]).text(`${severityLabel[f.severity]}  ${f.code}${f.rfc ? `  (${f.rfc})` : ''}`, PAGE.margin + 8, fy, { width: CONTENT_WIDTH - 8 });
    paragraph(doc, f.message, { indent: 8, size: 9.5 });
    if (f.fix) paragraph(doc, `Fix: ${f.fix}`, { indent: 8, size: 9.5, color: COLORS.muted });
  }
  doc.moveDown(0.6);
  doc.moveTo(PAGE.margin, doc.y).lineTo(PAGE.margin + CONTENT_WIDTH, doc.y).lineWidth(0.5).strokeColor(COLORS.border).stroke();
}

function blacklist(doc: Doc, report: ReportDocument): void {
  const bl = report.blacklist;
  if (!bl) return;
  doc.addPage();
  doc.outline.addItem('Blacklists');
  heading(doc, 'Blacklists');
  paragraph(doc, `${bl.counts.listed} listed, ${bl.counts.clean} clean, ${bl.counts.unknown} unknown of ${bl.lists.length} lists checked.`, { color: COLORS.muted });
  doc.moveDown(0.5);
  table(
    doc,
    [
      { header: 'List', width: 40 },
      { header: 'Status', width: 18 },
      { header: 'Removal', width: 42 },
    ],
    bl.lists.map((l) => [
      { text: l.name },
      { text: l.status === 'listed' ? 'Listed' : l.status === 'clean' ? 'Clean' : 'Unknown', bold: true, color: statusColor(l.status) },
      l.removalUrl ? { text: l.removalUrl, link: l.removalUrl, color: COLORS.accent } : { text: '-', color: COLORS.muted },
    ]),
    CONTENT_WIDTH,
  );
  if (bl.addresses.length > 0) {
    doc.moveDown(0.5);
    paragraph(doc, 'Addresses checked', { bold: true, size: 11 });
    doc.moveDown(0.3);
    table(
      doc,
      [
        { header: 'Address', width: 25 },
        { header: 'Where it comes from', width: 35 },
        { header: 'Listed on', width: 40 },
      ],
      bl.addresses.map((a) => [
        { text: a.ip },
        { text: a.source ?? '-' },
        a.listedOn.length ? { text: a.listedOn.map((l) => l.list).join(', '), color: COLORS.fail, bold: true } : { text: 'Not listed', color: COLORS.pass },
      ]),
      CONTENT_WIDTH,
    );
  }
}

function mailFlow(doc: Doc, mf: ReportMailFlow): void {
  doc.addPage();
  doc.outline.addItem('Mail flow');
  heading(doc, 'Mail flow');
  paragraph(doc, mailFlowLine(mf), { bold: true, size: 11 });
  paragraph(doc, mailFlowCountsText(mf), { color: COLORS.muted });
  doc.moveDown(0.4);
  paragraph(doc, mf.policy ? `Published DMARC policy: ${mailFlowPolicyText(mf.policy)}.` : 'Published DMARC policy: no aggregate report has said yet.');
  heading(doc, `Top senders${mf.senderCount > mf.senders.length ? ` (${mf.senders.length} of ${mf.senderCount})` : ''}`, 13);
  if (mf.senders.length === 0) paragraph(doc, 'No sender reported.', { color: COLORS.muted });
  else {
    table(
      doc,
      [
        { header: 'Sender', width: 60 },
        { header: 'Messages', width: 20 },
        { header: 'DMARC pass', width: 20 },
      ],
      mf.senders.map((s) => [{ text: s.name }, { text: formatCount(s.messages) }, { text: formatShare(s.dmarcPass), bold: true }]),
      CONTENT_WIDTH,
    );
  }
  heading(doc, 'TLS reporting (TLS-RPT)', 13);
  if (!mf.tls) {
    paragraph(doc, 'No TLS-RPT report covers this window.', { color: COLORS.muted });
    return;
  }
  paragraph(doc, tlsSessionsText(mf.tls));
  if (mf.tls.failures.length) {
    doc.moveDown(0.4);
    table(
      doc,
      [
        { header: 'Failure type', width: 70 },
        { header: 'Sessions', width: 30 },
      ],
      mf.tls.failures.map((f) => [{ text: f.resultType }, { text: formatCount(f.sessions), color: COLORS.fail, bold: true }]),
      CONTENT_WIDTH,
    );
  }
}

function requirement(doc: Doc, r: SenderRequirement): void {
  ensureSpace(doc, 80);
  const y = doc.y + 8;
  doc.font(FONT.bold).fontSize(12).fillColor(COLORS.text).text(r.title, PAGE.margin, y, { lineBreak: false });
  const titleWidth = doc.widthOfString(r.title);
  pill(doc, requirementStatusLabel[r.status], PAGE.margin + titleWidth + 10, y, requirementStatusColor(r.status), 8);
  doc.y = y + 19;
  doc.x = PAGE.margin;
  paragraph(doc, `${requirementProvidersText(r)} ${r.description}`, { color: COLORS.muted, size: 9 });
  if (r.evidence.length === 0) {
    doc.moveDown(0.3);
    paragraph(doc, noEvidenceText(r), { indent: 8, color: COLORS.muted, size: 9 });
  }
  for (const ev of r.evidence) {
    ensureSpace(doc, 30);
    doc.moveDown(0.3);
    const { label, detail, note } = evidenceParts(ev);
    const ey = doc.y;
    doc.rect(PAGE.margin, ey, 2.5, 10).fill(requirementStatusColor(ev.status));
    doc.font(FONT.bold).fontSize(9).fillColor(COLORS.text).text(`${label}: `, PAGE.margin + 8, ey, { continued: true, width: CONTENT_WIDTH - 8 });
    doc.font(FONT.regular).text(detail, { continued: true }).fillColor(COLORS.muted).text(` (${note})`);
  }
  const fixLabel = requirementFixLabel(r);
  if (fixLabel && r.fix) {
    doc.moveDown(0.3);
    doc.font(FONT.bold).fontSize(9.5).fillColor(r.status === 'unmet' ? COLORS.fail : COLORS.muted).text(`${fixLabel}: `, PAGE.margin + 8, doc.y, { continued: true, width: CONTENT_WIDTH - 8 });
    doc.font(FONT.regular).fillColor(COLORS.text).text(r.fix);
  }
  if (r.links.length) {
    doc.moveDown(0.3);
    doc.font(FONT.regular).fontSize(8.5).fillColor(COLORS.muted).text(`${requirementLinksLabel(r)}: `, PAGE.margin + 8, doc.y, { continued: true, width: CONTENT_WIDTH - 8 });
    r.links.forEach((l, i) => {
      const last = i === r.links.length - 1;
      doc.fillColor(COLORS.accent).text(l.label, { link: l.url, underline: true, continued: true });
      doc.fillColor(COLORS.muted).text(last ? ` (${l.url})` : ` (${l.url}), `, { link: null, underline: false, continued: !last });
    });
  }
  doc.moveDown(0.6);
  doc.moveTo(PAGE.margin, doc.y).lineTo(PAGE.margin + CONTENT_WIDTH, doc.y).lineWidth(0.5).strokeColor(COLORS.border).stroke();
}

function senderRequirements(doc: Doc, sr: SenderRequirements): void {
  doc.addPage();
  doc.outline.addItem('Sender requirements');
  heading(doc, 'Sender requirements');
  paragraph(doc, senderRequirementsLine(sr), { bold: true, size: 11 });
  paragraph(doc, senderRequirementsJudgedText(sr), { color: COLORS.muted });
  doc.moveDown(0.3);
  for (const s of evidenceSourceLines(sr)) {
    doc.font(FONT.bold).fontSize(9).fillColor(COLORS.text).text(`${s.label}: `, PAGE.margin, doc.y, { continued: true, width: CONTENT_WIDTH });
    doc.font(FONT.regular).fillColor(COLORS.muted).text(s.text);
  }
  for (const r of sr.requirements) requirement(doc, r);
}

function trends(doc: Doc, report: ReportDocument): void {
  if (!report.trends) return;
  doc.addPage();
  doc.outline.addItem('Trends');
  heading(doc, 'Trends');
  paragraph(doc, `${report.trends.scansInWindow} scans in the last ${report.trends.days} days; one point per day (its last scan).`, { color: COLORS.muted });
  for (const window of trendWindows(report)) {
    ensureSpace(doc, 230);
    doc.moveDown(0.6);
    paragraph(doc, `Last ${window.days} days`, { bold: true, size: 11 });
    const scored = window.points.filter((p) => p.score !== null).map((p) => p.score!);
    if (scored.length) paragraph(doc, `Score from ${scored[0]} to ${scored.at(-1)}; lowest ${Math.min(...scored)}, highest ${Math.max(...scored)}.`, { size: 9, color: COLORS.muted });
    doc.moveDown(0.4);
    const y = doc.y;
    scoreChart(doc, window.points, PAGE.margin, y, CONTENT_WIDTH, 80);
    const used = statusStrips(doc, window.points, PAGE.margin, y + 100, CONTENT_WIDTH);
    doc.x = PAGE.margin;
    doc.y = y + 100 + used + 6;
  }
  heading(doc, 'DNS changes', 13);
  if (report.trends.dnsChanges.length === 0) {
    paragraph(doc, `No DNS change in the last ${report.trends.days} days.`, { color: COLORS.muted });
    return;
  }
  table(
    doc,
    [
      { header: 'When', width: 24 },
      { header: 'Record', width: 12 },
      { header: 'Change', width: 64 },
    ],
    report.trends.dnsChanges.map((c) => [{ text: formatDateTime(c.at) }, { text: c.record }, { text: c.summary, ...(c.impact === 'weakens' ? { color: COLORS.fail } : {}) }]),
    CONTENT_WIDTH,
  );
}

function footers(doc: Doc, report: ReportDocument): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const y = PAGE.height - PAGE.margin + 10;
    // Writing below the bottom margin would make pdfkit add a page: lift the margin for the footer.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font(FONT.regular).fontSize(8).fillColor(COLORS.muted);
    doc.text(`Sendwell report for ${report.domain.name}, ${formatDay(report.generatedAt)}`, PAGE.margin, y, { lineBreak: false });
    const label = `Page ${i + 1} of ${range.count}`;
    doc.text(label, PAGE.width - PAGE.margin - doc.widthOfString(label), y, { lineBreak: false });
    doc.page.margins.bottom = margin;
  }
}

export function renderPdf(report: ReportDocument, options: PdfOptions = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: PAGE.size,
      margin: PAGE.margin,
      bufferPages: true,
      autoFirstPage: true,
      info: {
        Title: `Sendwell ${report.kind === 'full' ? 'report' : 'summary'} for ${report.domain.name}`,
        Author: 'Sendwell',
        Subject: 'Email deliverability and domain reputation',
        CreationDate: new Date(report.generatedAt),
      },
      displayTitle: true,
      lang: 'en',
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      const fonts = reportFonts();
      doc.registerFont(FONT.regular, fonts.regular);
      doc.registerFont(FONT.bold, fonts.bold);
      doc.outline.addItem('Overview');
      cover(doc, report);
      if (report.kind === 'full') {
        doc.addPage();
        doc.outline.addItem('Action plan');
      }
      actions(doc, report, options.appUrl);
      if (report.kind === 'full' && report.checks.length > 0) {
        doc.addPage();
        const checks = doc.outline.addItem('Checks');
        heading(doc, 'Checks');
        paragraph(doc, 'Most impact first. Points are each check\'s share of the reputation score.', { color: COLORS.muted });
        for (const c of report.checks) {
          checks.addItem(reportCheckTitles[c.type]);
          check(doc, c);
        }
      }
      if (report.kind === 'full') {
        blacklist(doc, report);
        if (report.mailFlow) mailFlow(doc, report.mailFlow);
        if (report.senderRequirements) senderRequirements(doc, report.senderRequirements);
        trends(doc, report);
      }
      footers(doc, report);
      doc.end();
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
