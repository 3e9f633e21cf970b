import type { SourceRow } from '../mail-flow/mail-flow.repository.js';
import { categorise, groupSenders } from '../mail-flow/senders.js';
import type { DayWindow } from '../mail-flow/window.js';
import type { MailFlowEvidence } from './evidence.js';

/** Addresses without a confirmed name listed in the evidence; the rest are counted. */
export const MAX_UNCONFIRMED_LISTED = 5;

/**
 * The authorised senders' figures over the window, null when none sent. Senders are grouped and
 * categorised as Mail flow does: spoofers and forwarders are someone else's mail, and counting them
 * would make the domain's own set-up look broken.
 */
export function mailFlowFigures(rows: readonly SourceRow[], window: DayWindow): MailFlowEvidence | null {
  const authorised = groupSenders(rows)
    .filter((group) => categorise(group) === 'authorised')
    .flatMap((group) => group.sources);
  const messages = authorised.reduce((sum, r) => sum + r.messages, 0);
  if (messages === 0) return null;

  const lookedUp = authorised.filter((r) => r.lookedUp);
  const unconfirmed = lookedUp.filter((r) => r.host === null).sort((a, b) => b.messages - a.messages || a.ip.localeCompare(b.ip));
  return {
    from: window.from,
    to: window.to,
    messages,
    spfPass: authorised.reduce((sum, r) => sum + r.spfPass, 0),
    dkimPass: authorised.reduce((sum, r) => sum + r.dkimPass, 0),
    dmarcPass: authorised.reduce((sum, r) => sum + r.pass, 0),
    addressesLookedUp: lookedUp.length,
    addressesConfirmed: lookedUp.length - unconfirmed.length,
    unconfirmed: unconfirmed.slice(0, MAX_UNCONFIRMED_LISTED).map((r) => r.ip),
    addressesPending: authorised.length - lookedUp.length,
  };
}
