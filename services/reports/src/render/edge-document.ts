/** A document at the edges renderers must survive: nulls everywhere, empty lists, a huge record, markup and non-Latin text. */
import type { ReportDocument } from '@sendwell/contracts';
import { sampleReportDocument, sampleSenderRequirements } from './sample-document.js';

export const HOSTILE = '<script>alert(1)</script>"onload="x';

export function edgeReportDocument(): ReportDocument {
  const base = sampleReportDocument({ kind: 'full', days: 90, domainName: 'bücher-shop.example' });
  const [first, ...rest] = base.checks;
  return {
    ...base,
    scan: null,
    overall: { status: 'pending', score: null, label: null, trend: null, previousScore: null, breakdown: null },
    summary: `bücher-shop.example has no reputation score yet ${HOSTILE}`,
    checks: [
      {
        ...first!,
        published: [{ label: 'TXT', value: `v=spf1 ${'include:a-very-long-include-name.example.com '.repeat(65)}${HOSTILE} ~all` }],
        findings: [{ code: 'SPF_HOSTILE', severity: 'error', message: `Record says ${HOSTILE}`, rfc: null, fix: null }],
      },
      ...rest.map((c) => ({ ...c, findings: [], published: [] })),
    ],
    blacklist: { lists: [], addresses: [], counts: { listed: 0, clean: 0, unknown: 0 } },
    trends: { days: 90, points: [], dnsChanges: [], scansInWindow: 0 },
    actions: [],
    senderRequirements: sampleSenderRequirements({ domainName: 'bücher-shop.example', spfDetail: `The record says ${HOSTILE}` }),
  };
}
