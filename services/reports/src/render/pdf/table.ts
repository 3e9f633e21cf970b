/**
 * A table that breaks across pages and repeats its header row there: columns of fixed width, rows as
 * tall as their tallest wrapped cell, a rule under each row.
 */
import { COLORS } from '../presentation.js';
import { BOTTOM, FONT, PAGE, type Doc } from './layout.js';

export interface Column {
  header: string;
  /** Share of the table's width. */
  width: number;
}

export interface Cell {
  /** A bold first line above the text. */
  title?: string;
  text: string;
  color?: string;
  bold?: boolean;
  link?: string | null;
}

const PAD = 4;
const SIZE = 9;

function rowHeight(doc: Doc, cells: Cell[], widths: number[]): number {
  let height = 0;
  cells.forEach((cell, i) => {
    const width = widths[i]! - PAD * 2;
    const title = cell.title ? doc.font(FONT.bold).fontSize(SIZE).heightOfString(cell.title, { width }) : 0;
    doc.font(cell.bold ? FONT.bold : FONT.regular).fontSize(SIZE);
    height = Math.max(height, title + doc.heightOfString(cell.text || ' ', { width }));
  });
  return height + PAD * 2;
}

function drawRow(doc: Doc, cells: Cell[], widths: number[], y: number, height: number, header: boolean): void {
  let x = PAGE.margin;
  if (header) doc.rect(PAGE.margin, y, widths.reduce((a, b) => a + b, 0), height).fill('#f3f4f6');
  cells.forEach((cell, i) => {
    const width = widths[i]! - PAD * 2;
    let top = y + PAD;
    if (cell.title) {
      doc.font(FONT.bold).fontSize(SIZE).fillColor(COLORS.text).text(cell.title, x + PAD, top, { width });
      top = doc.y;
    }
    doc
      .font(header || cell.bold ? FONT.bold : FONT.regular)
      .fontSize(SIZE)
      .fillColor(cell.color ?? COLORS.text)
      .text(cell.text, x + PAD, top, { width, ...(cell.link ? { link: cell.link, underline: true } : {}) });
    x += widths[i]!;
  });
  doc
    .moveTo(PAGE.margin, y + height)
    .lineTo(x, y + height)
    .lineWidth(0.5)
    .strokeColor(COLORS.border)
    .stroke();
  doc.fillColor(COLORS.text);
}

export function table(doc: Doc, columns: Column[], rows: Cell[][], width: number): void {
  const total = columns.reduce((a, c) => a + c.width, 0);
  const widths = columns.map((c) => (c.width / total) * width);
  const header = columns.map((c) => ({ text: c.header, bold: true }));
  const headerHeight = rowHeight(doc, header, widths);
  let y = doc.y;
  const startPage = (): void => {
    drawRow(doc, header, widths, y, headerHeight, true);
    y += headerHeight;
  };
  if (y + headerHeight * 2 > BOTTOM) {
    doc.addPage();
    y = doc.y;
  }
  startPage();
  for (const row of rows) {
    const height = rowHeight(doc, row, widths);
    if (y + height > BOTTOM) {
      doc.addPage();
      y = doc.y;
      startPage();
    }
    drawRow(doc, row, widths, y, height, false);
    y += height;
  }
  doc.x = PAGE.margin;
  doc.y = y + 6;
}
