/** Page geometry and the small drawing helpers every section shares. */
import type PDFDocument from 'pdfkit';
import { COLORS } from '../presentation.js';

export type Doc = InstanceType<typeof PDFDocument>;

export const PAGE = { size: 'A4' as const, margin: 50, width: 595.28, height: 841.89 };
export const CONTENT_WIDTH = PAGE.width - PAGE.margin * 2;
/** The footer's band, kept free of content. */
export const BOTTOM = PAGE.height - PAGE.margin - 20;

export const FONT = { regular: 'Inter', bold: 'Inter-Bold' } as const;

/** Starts a new page when fewer than `needed` points remain above the footer. */
export function ensureSpace(doc: Doc, needed: number): void {
  if (doc.y + needed > BOTTOM) doc.addPage();
}

export function heading(doc: Doc, text: string, size = 16): void {
  ensureSpace(doc, size * 3);
  doc.moveDown(0.6).font(FONT.bold).fontSize(size).fillColor(COLORS.text).text(text, PAGE.margin, doc.y, { width: CONTENT_WIDTH });
  doc.moveDown(0.3);
}

export function paragraph(doc: Doc, text: string, options: { size?: number; color?: string; bold?: boolean; indent?: number } = {}): void {
  const indent = options.indent ?? 0;
  doc
    .font(options.bold ? FONT.bold : FONT.regular)
    .fontSize(options.size ?? 10)
    .fillColor(options.color ?? COLORS.text)
    .text(text, PAGE.margin + indent, doc.y, { width: CONTENT_WIDTH - indent });
}

/** A coloured label in a rounded box (status words), drawn at (x, y); returns its width. */
export function pill(doc: Doc, text: string, x: number, y: number, color: string, size = 9): number {
  doc.font(FONT.bold).fontSize(size);
  const width = doc.widthOfString(text) + 10;
  doc.roundedRect(x, y, width, size + 7, 3).fill(color);
  doc.fillColor('#ffffff').text(text, x + 5, y + 3.5, { lineBreak: false });
  doc.fillColor(COLORS.text);
  return width;
}

/** A horizontal bar of `value` out of `max`. */
export function bar(doc: Doc, x: number, y: number, width: number, value: number, max: number, color: string): void {
  doc.rect(x, y, width, 8).fill('#e5e7eb');
  doc.rect(x, y, Math.max(0, Math.min(1, value / max)) * width, 8).fill(color);
  doc.fillColor(COLORS.text);
}
