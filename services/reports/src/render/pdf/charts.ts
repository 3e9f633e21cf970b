/**
 * Trend charts as vector paths: the score as one line (a day without a scan breaks it), each check's
 * status as a strip of day cells, one filled path per colour.
 */
import type { ReportTrendPoint } from '@sendwell/contracts';
import { COLORS, formatDay, STATUS_GROUPS, STATUS_ROWS } from '../presentation.js';
import { FONT, type Doc } from './layout.js';

const AXIS = 28;

export function scoreChart(doc: Doc, points: ReportTrendPoint[], x: number, y: number, width: number, height: number): void {
  const plotX = x + AXIS;
  const plotW = width - AXIS;
  doc.font(FONT.regular).fontSize(7).fillColor(COLORS.muted);
  for (const value of [0, 50, 100]) {
    const gy = y + height - (value / 100) * height;
    doc.moveTo(plotX, gy).lineTo(plotX + plotW, gy).lineWidth(0.4).strokeColor(COLORS.border).stroke();
    doc.text(String(value), x, gy - 3.5, { width: AXIS - 4, align: 'right', lineBreak: false });
  }
  const step = points.length > 1 ? plotW / (points.length - 1) : 0;
  let drawing = false;
  let drawn = 0;
  points.forEach((p, i) => {
    if (p.score === null) {
      drawing = false;
      return;
    }
    const px = plotX + i * step;
    const py = y + height - (p.score / 100) * height;
    if (drawing) doc.lineTo(px, py);
    else doc.moveTo(px, py).lineTo(px + 0.01, py);
    drawing = true;
    drawn += 1;
  });
  if (drawn > 0) doc.lineWidth(1.5).strokeColor(COLORS.accent).lineJoin('round').lineCap('round').stroke();
  if (points.length > 0) {
    doc.fillColor(COLORS.muted).fontSize(7);
    doc.text(formatDay(points[0]!.day), plotX, y + height + 3, { lineBreak: false });
    const last = formatDay(points.at(-1)!.day);
    doc.text(last, plotX + plotW - doc.widthOfString(last), y + height + 3, { lineBreak: false });
  }
  doc.fillColor(COLORS.text);
}

const LABEL_W = 90;

/** One row for the overall status and one per check, one cell per day; returns the height used. */
export function statusStrips(doc: Doc, points: ReportTrendPoint[], x: number, y: number, width: number): number {
  const rowH = 11;
  const gap = 3;
  const cellW = points.length ? (width - LABEL_W) / points.length : 0;
  doc.font(FONT.regular).fontSize(8).fillColor(COLORS.text);
  STATUS_ROWS.forEach((r, row) => doc.text(r.label, x, y + row * (rowH + gap) + 1.5, { width: LABEL_W - 6, lineBreak: false }));
  for (const status of STATUS_GROUPS) {
    let any = false;
    STATUS_ROWS.forEach((r, row) => {
      points.forEach((p, i) => {
        if (status.matches(r.statusOf(p))) {
          doc.rect(x + LABEL_W + i * cellW, y + row * (rowH + gap), Math.max(cellW - 0.6, 0.6), rowH);
          any = true;
        }
      });
    });
    if (any) doc.fill(status.color);
  }
  const legendY = y + STATUS_ROWS.length * (rowH + gap) + 4;
  let lx = x + LABEL_W;
  doc.fontSize(7);
  for (const status of STATUS_GROUPS) {
    doc.rect(lx, legendY + 1, 7, 7).fill(status.color);
    doc.fillColor(COLORS.muted).text(status.label, lx + 10, legendY + 0.5, { lineBreak: false });
    lx += 16 + doc.widthOfString(status.label) + 8;
  }
  doc.fillColor(COLORS.text);
  return legendY + 12 - y;
}
