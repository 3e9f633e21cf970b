import type { OutgoingMail } from '@sendwell/server-kit';
import { headline, type AlertMessage } from '../alert-message.js';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const SEVERITY_COLOR: Record<string, string> = { critical: '#dc2626', high: '#ea580c', medium: '#ca8a04', low: '#2563eb' };

/** One alert's mail: what changed, why it matters, and links to the domain and its fixing guide. */
export function alertMail(to: string, message: AlertMessage): OutgoingMail {
  const title = headline(message);
  const colour = message.event === 'resolved' ? '#16a34a' : (SEVERITY_COLOR[message.alert.severity] ?? '#2563eb');
  const text = [
    title,
    '',
    message.alert.message,
    '',
    `Why it matters: ${message.whyItMatters}`,
    '',
    `Domain: ${message.links.domain}`,
    ...(message.links.guide ? [`How to fix it: ${message.links.guide}`] : []),
    '',
    `Severity: ${message.alert.severity}`,
    `Change what Sendwell emails you: ${message.links.preferences}`,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111;max-width:600px;margin:auto">
<p style="display:inline-block;padding:2px 8px;border-radius:4px;background:${colour};color:#fff;font-size:12px;text-transform:uppercase">${escapeHtml(message.event === 'resolved' ? 'resolved' : message.alert.severity)}</p>
<h1 style="font-size:20px">${escapeHtml(title)}</h1>
<p>${escapeHtml(message.alert.message)}</p>
<p style="color:#555"><strong>Why it matters:</strong> ${escapeHtml(message.whyItMatters)}</p>
<p><a href="${escapeHtml(message.links.domain)}" style="background:#111;color:#fff;padding:8px 14px;border-radius:6px;text-decoration:none">Open ${escapeHtml(message.domain.name)}</a>${
    message.links.guide ? ` &nbsp; <a href="${escapeHtml(message.links.guide)}">How to fix it</a>` : ''
  }</p>
<p style="color:#888;font-size:12px">You get this because alerts are on for your Sendwell account. <a href="${escapeHtml(message.links.preferences)}">Change what we email you</a>.</p>
</body></html>`;
  return { to, subject: `[Sendwell] ${title}`, text, html };
}

/** The daily digest: every alert of the day in one mail, most severe first. */
export function digestMail(to: string, messages: AlertMessage[], preferences: string): OutgoingMail {
  const rank: Record<string, number> = { critical: 0, high: 1, medium: 2, low: 3 };
  const sorted = [...messages].sort((a, b) => (rank[a.alert.severity] ?? 4) - (rank[b.alert.severity] ?? 4));
  const subject = `[Sendwell] Daily digest: ${messages.length} alert${messages.length === 1 ? '' : 's'}`;
  const text = [
    subject.replace('[Sendwell] ', ''),
    '',
    ...sorted.map((m) => `- [${m.event === 'resolved' ? 'resolved' : m.alert.severity}] ${headline(m)}\n  ${m.links.guide ?? m.links.domain}`),
    '',
    `Change what Sendwell emails you: ${preferences}`,
  ].join('\n');
  const items = sorted
    .map((m) => `<li style="margin-bottom:10px"><strong>${escapeHtml(headline(m))}</strong><br><span style="color:#555">${escapeHtml(m.alert.message)}</span><br><a href="${escapeHtml(m.links.guide ?? m.links.domain)}">${m.links.guide ? 'How to fix it' : 'Open domain'}</a></li>`)
    .join('');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111;max-width:600px;margin:auto"><h1 style="font-size:20px">${escapeHtml(subject.replace('[Sendwell] ', ''))}</h1><ul>${items}</ul><p style="color:#888;font-size:12px"><a href="${escapeHtml(preferences)}">Change what we email you</a>.</p></body></html>`;
  return { to, subject, text, html };
}
