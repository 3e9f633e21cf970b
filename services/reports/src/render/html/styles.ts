import { COLORS } from '../presentation.js';

/** The report's only stylesheet: system fonts, readable on screen, A4 in print. */
export const REPORT_CSS = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { -webkit-print-color-adjust: exact; print-color-adjust: exact; margin: 0; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: ${COLORS.text}; background: #f9fafb; }
main { max-width: 860px; margin: 0 auto; padding: 32px 24px 48px; background: #fff; }
h1 { font-size: 30px; margin: 4px 0 2px; overflow-wrap: anywhere; }
h2 { font-size: 21px; margin: 36px 0 10px; padding-top: 8px; border-top: 1px solid ${COLORS.border}; }
h3 { font-size: 17px; margin: 24px 0 6px; }
.brand { color: ${COLORS.accent}; font-weight: 700; letter-spacing: .08em; font-size: 13px; margin: 0; }
.muted { color: ${COLORS.muted}; }
.cover { display: flex; gap: 24px; align-items: center; flex-wrap: wrap; margin: 20px 0; }
.score { font-size: 56px; font-weight: 800; line-height: 1; }
.status { display: inline-block; padding: 2px 10px; border-radius: 999px; color: #fff; font-weight: 700; font-size: 13px; }
.parts { width: 100%; border-collapse: collapse; }
.parts td { padding: 4px 8px 4px 0; }
.meter { height: 10px; background: #e5e7eb; border-radius: 5px; overflow: hidden; min-width: 160px; }
.meter span { display: block; height: 100%; background: ${COLORS.accent}; }
table.data { width: 100%; border-collapse: collapse; margin: 8px 0 16px; font-size: 14px; }
table.data caption { text-align: left; font-weight: 600; padding: 4px 0; }
table.data th, table.data td { text-align: left; vertical-align: top; padding: 6px 8px; border-bottom: 1px solid ${COLORS.border}; }
table.data th { background: #f3f4f6; }
.check { border: 1px solid ${COLORS.border}; border-radius: 8px; padding: 12px 16px; margin: 14px 0; break-inside: avoid-page; }
.check header { display: flex; justify-content: space-between; align-items: baseline; gap: 12px; flex-wrap: wrap; }
.check h3 { margin: 0; }
dl.published { margin: 8px 0; }
dl.published dt { font-size: 12px; font-weight: 700; color: ${COLORS.muted}; margin-top: 6px; }
dl.published dd { margin: 0; }
code { font: 13px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; word-break: break-all; background: #f3f4f6; padding: 1px 4px; border-radius: 4px; }
ul.findings { list-style: none; padding: 0; margin: 8px 0 0; }
ul.findings li { border-left: 3px solid ${COLORS.border}; padding: 4px 0 4px 10px; margin: 8px 0; break-inside: avoid; }
ul.findings li.error { border-color: ${COLORS.fail}; }
ul.findings li.warning { border-color: ${COLORS.warning}; }
ul.findings li.met { border-color: ${COLORS.pass}; }
.sev { font-weight: 700; font-size: 13px; }
.chart { width: 100%; height: auto; font: 11px system-ui, sans-serif; fill: ${COLORS.muted}; }
.gain { color: ${COLORS.pass}; font-weight: 700; white-space: nowrap; }
a { color: ${COLORS.accent}; }
footer { margin-top: 40px; font-size: 13px; }
@media print {
  @page { size: A4; margin: 16mm; }
  body { background: #fff; font-size: 10pt; }
  main { max-width: none; padding: 0; }
  h1 { font-size: 20pt; }
  .score { font-size: 36pt; }
  .cover { margin: 8px 0; }
  table.data { font-size: 9pt; }
  table.data th, table.data td { padding: 3px 6px; }
  h2 { break-before: page; border-top: 0; }
  h2.keep { break-before: auto; }
  tr, .check, ul.findings li { break-inside: avoid; }
  a[href^="http"]::after { content: " (" attr(href) ")"; font-size: 7.5pt; color: ${COLORS.muted}; overflow-wrap: anywhere; }
}
`;
