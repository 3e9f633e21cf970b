/**
 * The automated report's mail: a short HTML and text summary with the PDF attached. Every value from
 * the document is escaped (domain names and findings come from DNS, that is from anyone).
 */
import { reportFileName, type ReportDocument } from '@sendwell/contracts';
import type { OutgoingMail } from '@sendwell/server-kit';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function automatedReportMail(to: string, document: ReportDocument, pdf: Buffer, createdAt: Date, appUrl: string): OutgoingMail {
  const domain = document.domain.name;
  const score = document.overall.score === null ? 'no score yet' : `${document.overall.score}/100 (${document.overall.label})`;
  const top = document.actions.slice(0, 3);
  const reportsUrl = `${appUrl}/reports`;
  const subject = `Your Sendwell report for ${domain}: ${score}`;
  const text = [
    `Your automated report for ${domain} is ready; the PDF is attached.`,
    '',
    `Reputation score: ${score}`,
    '',
    document.summary,
    '',
    ...(top.length ? ['What to fix first:', ...top.map((a) => `  ${a.rank}. ${a.title} (about +${a.expectedGain} points)`), ''] : []),
    `All your reports: ${reportsUrl}`,
    'You can turn these mails off in Settings, Notifications.',
  ].join('\n');
  const html = `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;color:#1f2937;line-height:1.5">
<p>Your automated report for <strong>${escapeHtml(domain)}</strong> is ready; the PDF is attached.</p>
<p style="font-size:1.25em"><strong>Reputation score:</strong> ${escapeHtml(score)}</p>
<p>${escapeHtml(document.summary)}</p>
${top.length ? `<p><strong>What to fix first</strong></p><ol>${top.map((a) => `<li>${escapeHtml(a.title)} (about +${a.expectedGain} points)</li>`).join('')}</ol>` : ''}
<p><a href="${escapeHtml(reportsUrl)}">All your reports</a></p>
<p style="color:#4b5563;font-size:0.875em">You can turn these mails off in Settings, Notifications.</p>
</body></html>`;
  return { to, subject, text, html, attachments: [{ filename: reportFileName(domain, createdAt, 'pdf'), content: pdf, contentType: 'application/pdf' }] };
}
