/**
 * The HTML report: one self-contained page (inline CSS and SVG, no script, nothing fetched) that
 * reads offline, prints on A4 and passes axe. Every value from the document is escaped.
 */
import type { ReportCheck, ReportDocument, ReportMailFlow, SenderRequirement, SenderRequirements } from '@sendwell/contracts';
import {
  checkStatusLabel,
  domainStatusLabel,
  formatCount,
  formatDateTime,
  formatDay,
  formatPoints,
  formatShare,
  mailFlowCountsText,
  mailFlowLine,
  mailFlowPolicyParts,
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
import { escapeHtml as e, safeHref } from './escape.js';
import { REPORT_CSS } from './styles.js';
import { scoreSvg, statusSvg } from './svg-charts.js';

export interface HtmlOptions {
  /** Origin of the app, for links to fixing guides. */
  appUrl?: string;
}

const link = (url: string | null | undefined, text: string) => {
  const href = safeHref(url);
  return href ? `<a href="${e(href)}">${e(text)}</a>` : e(text);
};

function cover(doc: ReportDocument): string {
  const { overall } = doc;
  const parts = overall.breakdown
    ? `<table class="parts"><caption class="muted" style="text-align:left">Score breakdown</caption><tbody>${(
        [
          ['Email authentication', overall.breakdown.emailAuthentication],
          ['Security and deliverability', overall.breakdown.securityDeliverability],
          ['Configuration health', overall.breakdown.configurationHealth],
        ] as const
      )
        .map(
          ([label, p]) =>
            `<tr><th scope="row" style="text-align:left;font-weight:400">${label}</th><td style="width:50%"><div class="meter" aria-hidden="true"><span style="width:${Math.round((p.score / p.max) * 100)}%"></span></div></td><td><strong>${formatPoints(p.score)} / ${p.max}</strong></td></tr>`,
        )
        .join('')}</tbody></table>`
    : '';
  return `<header>
<p class="brand">SENDWELL</p>
<p class="muted" style="margin:12px 0 0">${doc.kind === 'full' ? 'Email deliverability report' : 'Email deliverability summary'}</p>
<h1>${e(doc.domain.name)}</h1>
<p class="muted" style="margin:0">Generated ${e(formatDateTime(doc.generatedAt))}. ${doc.scan ? `From the scan of ${e(formatDateTime(doc.scan.completedAt))}.` : 'No completed scan yet.'}</p>
</header>
<section aria-label="Overall">
<div class="cover">
<div><div class="score" style="color:${overall.score === null ? '#4b5563' : statusColor(overall.status)}">${overall.score ?? '-'}</div><div class="muted">Reputation score / 100</div></div>
<div><p style="margin:0;font-size:19px;font-weight:700">${e(scoreText(doc))}</p>
<p style="margin:6px 0 0"><span class="status" style="background:${statusColor(overall.status)}">${e(domainStatusLabel(overall.status))}</span>${
    overall.trend && overall.previousScore !== null ? ` <span class="muted">Trend: ${e(overall.trend)} (previously ${overall.previousScore})</span>` : ''
  }</p></div>
</div>
${parts}
<p style="font-size:17px">${e(doc.summary)}</p>
</section>`;
}

function actions(doc: ReportDocument, appUrl: string | undefined): string {
  const title = doc.kind === 'full' ? 'Action plan' : 'What to fix first';
  if (doc.actions.length === 0) return `<h2 class="keep">${title}</h2><p class="muted">Nothing to fix: every check passes.</p>`;
  const rows = doc.actions
    .map((a) => {
      const guide = a.guidePath && appUrl ? link(`${appUrl}${a.guidePath}`, 'Fixing guide') : '<span class="muted">-</span>';
      return `<tr><td>${a.rank}</td><td><strong>${e(a.title)}</strong><br><span class="muted">${e(a.detail)}</span></td><td class="gain">+${formatPoints(a.expectedGain)} points</td><td>${guide}</td></tr>`;
    })
    .join('');
  return `<h2 class="keep">${title}</h2>
<table class="data"><caption>Failures first, then by the points each fix is expected to add to the score</caption>
<thead><tr><th scope="col">#</th><th scope="col">Action</th><th scope="col">Expected gain</th><th scope="col">Guide</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function check(c: ReportCheck): string {
  const published = c.published.length ? `<dl class="published">${c.published.map((p) => `<dt>${e(p.label)}</dt><dd><code>${e(p.value)}</code></dd>`).join('')}</dl>` : '';
  const findings = c.findings.length
    ? `<ul class="findings">${c.findings
        .map(
          (f) =>
            `<li class="${f.severity}"><span class="sev">${severityLabel[f.severity]}</span> <code>${e(f.code)}</code>${f.rfc ? ` <span class="muted">(${e(f.rfc)})</span>` : ''}<br>${e(f.message)}${f.fix ? `<br><span class="muted">Fix: ${e(f.fix)}</span>` : ''}</li>`,
        )
        .join('')}</ul>`
    : '<p class="muted">No findings.</p>';
  return `<article class="check" aria-labelledby="check-${c.type}">
<header><h3 id="check-${c.type}">${e(c.title)} <span class="status" style="background:${statusColor(c.status)}">${checkStatusLabel[c.status]}</span></h3>
<span class="muted">${formatPoints(c.points.earned)} of ${c.points.max} points</span></header>
${c.message ? `<p class="muted" style="margin:6px 0 0">${e(c.message)}</p>` : ''}${published}${findings}</article>`;
}

function blacklist(doc: ReportDocument): string {
  const bl = doc.blacklist;
  if (!bl) return '';
  const lists = bl.lists
    .map((l) => {
      const status = l.status === 'listed' ? 'Listed' : l.status === 'clean' ? 'Clean' : 'Unknown';
      return `<tr><td>${e(l.name)}</td><td><strong style="color:${statusColor(l.status)}">${status}</strong></td><td>${l.removalUrl ? link(l.removalUrl, l.removalUrl) : '<span class="muted">-</span>'}</td></tr>`;
    })
    .join('');
  const addresses = bl.addresses.length
    ? `<table class="data"><caption>Addresses checked</caption><thead><tr><th scope="col">Address</th><th scope="col">Where it comes from</th><th scope="col">Listed on</th></tr></thead><tbody>${bl.addresses
        .map((a) => `<tr><td>${e(a.ip)}</td><td>${e(a.source ?? '-')}</td><td>${a.listedOn.length ? `<strong style="color:${statusColor('listed')}">${e(a.listedOn.map((l) => l.list).join(', '))}</strong>` : 'Not listed'}</td></tr>`)
        .join('')}</tbody></table>`
    : '';
  return `<h2>Blacklists</h2>
<p class="muted">${bl.counts.listed} listed, ${bl.counts.clean} clean, ${bl.counts.unknown} unknown of ${bl.lists.length} lists checked.</p>
<table class="data"><caption>Every list checked</caption><thead><tr><th scope="col">List</th><th scope="col">Status</th><th scope="col">Removal</th></tr></thead><tbody>${lists}</tbody></table>${addresses}`;
}

function mailFlow(mf: ReportMailFlow): string {
  const parts = mf.policy ? mailFlowPolicyParts(mf.policy) : null;
  const policy = parts ? `Published DMARC policy: <code>${e(parts.record)}</code>${e(parts.note)}.` : 'Published DMARC policy: no aggregate report has said yet.';
  const senders = mf.senders.length
    ? `<table class="data"><caption>Top senders${mf.senderCount > mf.senders.length ? ` (${mf.senders.length} of ${mf.senderCount})` : ''}</caption><thead><tr><th scope="col">Sender</th><th scope="col">Messages</th><th scope="col">DMARC pass</th></tr></thead><tbody>${mf.senders
        .map((s) => `<tr><td>${e(s.name)}</td><td>${formatCount(s.messages)}</td><td>${formatShare(s.dmarcPass)}</td></tr>`)
        .join('')}</tbody></table>`
    : '<p class="muted">No sender reported.</p>';
  const tls = mf.tls
    ? `<p>${e(tlsSessionsText(mf.tls))}</p>${
        mf.tls.failures.length
          ? `<table class="data"><caption>TLS failures by type</caption><thead><tr><th scope="col">Failure type</th><th scope="col">Sessions</th></tr></thead><tbody>${mf.tls.failures
              .map((f) => `<tr><td><code>${e(f.resultType)}</code></td><td>${formatCount(f.sessions)}</td></tr>`)
              .join('')}</tbody></table>`
          : ''
      }`
    : '<p class="muted">No TLS-RPT report covers this window.</p>';
  return `<h2>Mail flow</h2><p><strong>${e(mailFlowLine(mf))}</strong></p><p class="muted">${e(mailFlowCountsText(mf))}</p><p>${policy}</p>${senders}<h3>TLS reporting (TLS-RPT)</h3>${tls}`;
}

function requirement(r: SenderRequirement): string {
  const evidence = r.evidence.length
    ? `<ul class="findings">${r.evidence
        .map((ev) => {
          const { label, detail, note } = evidenceParts(ev);
          return `<li class="${ev.status === 'unmet' ? 'error' : 'met'}"><strong>${e(label)}:</strong> ${e(detail)} <span class="muted">(${e(note)})</span></li>`;
        })
        .join('')}</ul>`
    : `<p class="muted">${e(noEvidenceText(r))}</p>`;
  const fixLabel = requirementFixLabel(r);
  const fix = fixLabel && r.fix ? `<p style="margin:8px 0 0">${r.status === 'unmet' ? `<strong>${fixLabel}:</strong>` : `<span class="muted">${fixLabel}:</span>`} ${e(r.fix)}</p>` : '';
  const links = r.links.length ? `<p class="muted" style="margin:8px 0 0">${requirementLinksLabel(r)}: ${r.links.map((l) => link(l.url, l.label)).join(', ')}</p>` : '';
  return `<article class="check" aria-labelledby="requirement-${e(r.id)}">
<header><h3 id="requirement-${e(r.id)}">${e(r.title)} <span class="status" style="background:${requirementStatusColor(r.status)}">${requirementStatusLabel[r.status]}</span></h3></header>
<p class="muted" style="margin:6px 0 0">${e(requirementProvidersText(r))} ${e(r.description)}</p>${evidence}${fix}${links}</article>`;
}

function senderRequirements(sr: SenderRequirements): string {
  const sources = `<dl class="published">${evidenceSourceLines(sr)
    .map((s) => `<dt>${e(s.label)}</dt><dd>${e(s.text)}</dd>`)
    .join('')}</dl>`;
  return `<h2>Sender requirements</h2><p><strong>${e(senderRequirementsLine(sr))}</strong></p><p class="muted">${e(senderRequirementsJudgedText(sr))}</p>${sources}${sr.requirements.map(requirement).join('')}`;
}

function trends(doc: ReportDocument): string {
  const t = doc.trends;
  if (!t) return '';
  const windows = trendWindows(doc)
    .map((w) => `<h3>Last ${w.days} days</h3>${scoreSvg(w.points, w.days)}${statusSvg(w.points, w.days)}`)
    .join('');
  const changes = t.dnsChanges.length
    ? `<table class="data"><caption>DNS changes in the last ${t.days} days</caption><thead><tr><th scope="col">When</th><th scope="col">Record</th><th scope="col">Change</th></tr></thead><tbody>${t.dnsChanges
        .map((c) => `<tr><td>${e(formatDateTime(c.at))}</td><td>${e(c.record)}</td><td${c.impact === 'weakens' ? ' style="color:#b91c1c"' : ''}>${e(c.summary)}</td></tr>`)
        .join('')}</tbody></table>`
    : `<p class="muted">No DNS change in the last ${t.days} days.</p>`;
  return `<h2>Trends</h2><p class="muted">${t.scansInWindow} scans in the last ${t.days} days; one point per day (its last scan).</p>${windows}<h3>DNS changes</h3>${changes}`;
}

export function renderHtml(doc: ReportDocument, options: HtmlOptions = {}): string {
  const title = `Sendwell ${doc.kind === 'full' ? 'report' : 'summary'} for ${doc.domain.name}, ${formatDay(doc.generatedAt)}`;
  const body =
    doc.kind === 'full'
      ? `${cover(doc)}${actions(doc, options.appUrl)}${doc.checks.length ? `<h2>Checks</h2><p class="muted">Most impact first. Points are each check's share of the reputation score.</p>${doc.checks.map(check).join('')}` : ''}${blacklist(doc)}${doc.mailFlow ? mailFlow(doc.mailFlow) : ''}${doc.senderRequirements ? senderRequirements(doc.senderRequirements) : ''}${trends(doc)}`
      : `${cover(doc)}${doc.mailFlow ? `<p>${e(mailFlowLine(doc.mailFlow))}</p>` : ''}${doc.senderRequirements ? `<p>${e(senderRequirementsLine(doc.senderRequirements))}</p>` : ''}${actions(doc, options.appUrl)}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${e(title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<main>
${body}
<footer class="muted">Generated by Sendwell from stored scan results on ${e(formatDateTime(doc.generatedAt))}. Report ${doc.reportId}, schema version ${doc.schemaVersion}.</footer>
</main>
</body>
</html>
`;
}
