import { SENDER_REQUIREMENT_FAILING_SHARE, type RequirementEvidence } from '@sendwell/contracts';
import type { MailFlowEvidence, SourceEvidence } from './evidence.js';
import { count, listed, percent } from './format.js';

/** Evidence is for the window's last day (the reports trail by a day or so, but the window ends today). */
const observedAtOf = (flow: MailFlowEvidence): string => `${flow.to}T00:00:00.000Z`;

/**
 * What the aggregate reports show of authorised senders' mail: the share passing SPF, DKIM and DMARC
 * (failing at SENDER_REQUIREMENT_FAILING_SHARE or more is unmet), and whether every sending address
 * has forward-confirmed reverse DNS.
 */
export function mailFlowEvidence(flow: MailFlowEvidence, domain: string): SourceEvidence {
  if (flow.messages === 0) return {};
  const observedAt = observedAtOf(flow);
  const passing = (passed: number, what: string): RequirementEvidence => ({
    source: 'mail_flow',
    status: (flow.messages - passed) / flow.messages < SENDER_REQUIREMENT_FAILING_SHARE ? 'met' : 'unmet',
    detail: `${count(passed)} of ${count(flow.messages)} messages from authorised senders passed ${what} (${percent(passed, flow.messages)}).`,
    observedAt,
  });
  const out: SourceEvidence = {
    spf: passing(flow.spfPass, 'SPF'),
    dkim: passing(flow.dkimPass, 'DKIM'),
    alignment: passing(flow.dmarcPass, `DMARC, SPF or DKIM aligned with ${domain}`),
  };

  if (flow.addressesLookedUp > 0) {
    const missing = flow.addressesLookedUp - flow.addressesConfirmed;
    const pending = flow.addressesPending > 0 ? ` (${count(flow.addressesPending)} more not looked up yet)` : '';
    if (missing === 0) {
      out.reverse_dns = {
        source: 'mail_flow',
        status: 'met',
        detail: `All ${count(flow.addressesLookedUp)} sending addresses of authorised senders have forward-confirmed reverse DNS${pending}.`,
        observedAt,
      };
    } else {
      const names = [...flow.unconfirmed];
      if (missing > names.length) names.push(`${count(missing - names.length)} more`);
      out.reverse_dns = {
        source: 'mail_flow',
        status: 'unmet',
        detail: `${count(missing)} of ${count(flow.addressesLookedUp)} sending addresses of authorised senders have no forward-confirmed reverse DNS: ${listed(names)}${pending}.`,
        observedAt,
      };
    }
  }
  return out;
}
