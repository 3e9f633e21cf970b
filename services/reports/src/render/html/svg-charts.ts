/**
 * Trend charts as inline SVG with a text equivalent: the score as one path (gaps where a day had no
 * scan) and the overall and each check's status as strips of day cells, one path per status colour.
 */
import type { ReportTrendPoint } from '@sendwell/contracts';
import { COLORS, formatDay, STATUS_GROUPS, STATUS_ROWS } from '../presentation.js';
import { escapeHtml } from './escape.js';

const W = 640;
const H = 160;
const AXIS = 28;
const round = (n: number) => Math.round(n * 10) / 10;

export function scoreSvg(points: ReportTrendPoint[], days: number): string {
  const plotW = W - AXIS - 4;
  const plotH = H - 24;
  const step = points.length > 1 ? plotW / (points.length - 1) : 0;
  let d = '';
  let drawing = false;
  points.forEach((p, i) => {
    if (p.score === null) {
      drawing = false;
      return;
    }
    const x = round(AXIS + i * step);
    const y = round(4 + plotH - (p.score / 100) * plotH);
    d += drawing ? `L${x} ${y}` : `M${x} ${y}h0.1`;
    drawing = true;
  });
  const grid = [0, 50, 100]
    .map((v) => {
      const y = round(4 + plotH - (v / 100) * plotH);
      return `<line x1="${AXIS}" x2="${W - 4}" y1="${y}" y2="${y}" stroke="${COLORS.border}" stroke-width="1"/><text x="${AXIS - 4}" y="${y + 4}" text-anchor="end">${v}</text>`;
    })
    .join('');
  const first = points[0] ? formatDay(points[0].day) : '';
  const last = points.at(-1) ? formatDay(points.at(-1)!.day) : '';
  const scored = points.filter((p) => p.score !== null).map((p) => p.score!);
  const desc = scored.length
    ? `Daily reputation score from ${first} to ${last}: from ${scored[0]} to ${scored.at(-1)}, lowest ${Math.min(...scored)}, highest ${Math.max(...scored)}; ${points.length - scored.length} days without a scan.`
    : `No score in the last ${days} days.`;
  return `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="score-${days}-t score-${days}-d">
<title id="score-${days}-t">Reputation score, last ${days} days</title><desc id="score-${days}-d">${escapeHtml(desc)}</desc>
${grid}${d ? `<path d="${d}" fill="none" stroke="${COLORS.accent}" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"/>` : ''}
<text x="${AXIS}" y="${H - 4}">${escapeHtml(first)}</text><text x="${W - 4}" y="${H - 4}" text-anchor="end">${escapeHtml(last)}</text></svg>`;
}

export function statusSvg(points: ReportTrendPoint[], days: number): string {
  const labelW = 110;
  const rowH = 14;
  const gap = 4;
  const cellW = points.length ? (W - labelW) / points.length : 0;
  const height = STATUS_ROWS.length * (rowH + gap) + 20;
  const labels = STATUS_ROWS.map((r, row) => `<text x="0" y="${row * (rowH + gap) + 11}">${escapeHtml(r.label)}</text>`).join('');
  const paths = STATUS_GROUPS.map((g) => {
    let d = '';
    STATUS_ROWS.forEach((r, row) => {
      points.forEach((p, i) => {
        if (g.matches(r.statusOf(p))) d += `M${round(labelW + i * cellW)} ${row * (rowH + gap)}h${round(Math.max(cellW - 0.8, 0.8))}v${rowH}h${-round(Math.max(cellW - 0.8, 0.8))}z`;
      });
    });
    return d ? `<path d="${d}" fill="${g.color}"/>` : '';
  }).join('');
  let lx = labelW;
  const legend = STATUS_GROUPS.map((g) => {
    const item = `<rect x="${lx}" y="${height - 11}" width="9" height="9" fill="${g.color}"/><text x="${lx + 13}" y="${height - 3}">${g.label}</text>`;
    lx += 24 + g.label.length * 6.5;
    return item;
  }).join('');
  const summary = STATUS_ROWS.map((r) => {
    const counts = STATUS_GROUPS.map((g) => [g.label, points.filter((p) => g.matches(r.statusOf(p))).length] as const).filter(([, n]) => n > 0);
    return `${r.label}: ${counts.map(([l, n]) => `${l} ${n} days`).join(', ')}`;
  }).join('. ');
  return `<svg class="chart" viewBox="0 0 ${W} ${height}" role="img" aria-labelledby="status-${days}-t status-${days}-d">
<title id="status-${days}-t">Status of each check per day, last ${days} days</title><desc id="status-${days}-d">${escapeHtml(summary)}.</desc>
${labels}${paths}${legend}</svg>`;
}
