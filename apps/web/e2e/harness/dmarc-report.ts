/**
 * RFC 7489 appendix C aggregate reports for the mail-flow tests: written here rather than kept as
 * fixture files so each test can name its own domain, report id and days.
 */

export interface AggregateRecord {
  sourceIp: string;
  count: number;
  dkim: 'pass' | 'fail';
  spf: 'pass' | 'fail';
  /** The domain SPF checked (the envelope sender's), e.g. a forwarder's own domain. */
  spfDomain?: string;
  /** The DKIM signature's d= and selector, when the message was signed. */
  dkimSignature?: { domain: string; selector: string; result: 'pass' | 'fail' };
  /** A reporter's override (RFC 7489 §6.3 PolicyOverrideType), e.g. 'forwarded'. */
  overrideReason?: 'forwarded' | 'mailing_list' | 'local_policy' | 'trusted_forwarder' | 'sampled_out' | 'other';
}

export interface AggregateReportInput {
  domain: string;
  orgName: string;
  reportId: string;
  begin: Date;
  end: Date;
  policy?: 'none' | 'quarantine' | 'reject';
  records: AggregateRecord[];
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

export function aggregateReportXml(input: AggregateReportInput): string {
  const { domain } = input;
  const rows = input.records.map((r) => {
    const failing = r.dkim === 'fail' && r.spf === 'fail';
    const disposition = failing && input.policy && input.policy !== 'none' ? input.policy : 'none';
    const reason = r.overrideReason ? `<reason><type>${r.overrideReason}</type><comment></comment></reason>` : '';
    const dkim = r.dkimSignature ? `<dkim><domain>${esc(r.dkimSignature.domain)}</domain><selector>${esc(r.dkimSignature.selector)}</selector><result>${r.dkimSignature.result}</result></dkim>` : '';
    return `
  <record>
    <row>
      <source_ip>${r.sourceIp}</source_ip>
      <count>${r.count}</count>
      <policy_evaluated><disposition>${disposition}</disposition><dkim>${r.dkim}</dkim><spf>${r.spf}</spf>${reason}</policy_evaluated>
    </row>
    <identifiers><header_from>${esc(domain)}</header_from></identifiers>
    <auth_results>${dkim}<spf><domain>${esc(r.spfDomain ?? domain)}</domain><result>${r.spf}</result></spf></auth_results>
  </record>`;
  });
  return `<?xml version="1.0" encoding="UTF-8" ?>
<feedback>
  <version>1.0</version>
  <report_metadata>
    <org_name>${esc(input.orgName)}</org_name>
    <email>noreply-dmarc-support@${esc(input.orgName)}</email>
    <report_id>${esc(input.reportId)}</report_id>
    <date_range><begin>${seconds(input.begin)}</begin><end>${seconds(input.end)}</end></date_range>
  </report_metadata>
  <policy_published>
    <domain>${esc(domain)}</domain>
    <adkim>r</adkim><aspf>r</aspf><p>${input.policy ?? 'none'}</p><sp>${input.policy ?? 'none'}</sp><pct>100</pct>
  </policy_published>${rows.join('')}
</feedback>
`;
}

/** Yesterday, UTC, as a reporter's day: inside every window the mail-flow screen offers. */
export function yesterdayUtc(now = new Date()): { begin: Date; end: Date } {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - 86_400_000;
  return { begin: new Date(start), end: new Date(start + 86_400_000 - 1000) };
}

/**
 * A day of a domain's mail as a Google-like reporter sees it: its own signed mail passing, a spoofing
 * source failing, and a list that relayed mail and broke its authentication, which the reporter marks
 * 'forwarded' (RFC 7489 §6.3).
 */
export function sampleAggregateReport(domain: string, reportId: string) {
  const records: AggregateRecord[] = [
    { sourceIp: '209.85.220.41', count: 120, dkim: 'pass', spf: 'pass', dkimSignature: { domain, selector: 'google', result: 'pass' } },
    { sourceIp: '203.0.113.9', count: 15, dkim: 'fail', spf: 'fail', spfDomain: 'spoofer.example' },
    { sourceIp: '198.51.100.7', count: 8, dkim: 'fail', spf: 'fail', spfDomain: 'lists.example.org', overrideReason: 'forwarded' },
  ];
  const xml = aggregateReportXml({ domain, orgName: 'google.com', reportId, ...yesterdayUtc(), policy: 'none', records });
  return { xml, fileName: `google.com!${domain}!${reportId}.xml`, messages: records.reduce((n, r) => n + r.count, 0), records: records.length };
}
