import { dmarcPolicySchema, type DmarcPolicy, type PolicyReadiness } from '@sendwell/contracts';
import { FAILING_SHARE } from './senders.js';
import { share } from './window.js';

/** Days of reports needed before a step is judged: a week covers weekly senders (newsletters, billing runs). */
export const MIN_REPORT_DAYS = 7;

const STEP: Record<DmarcPolicy, DmarcPolicy | null> = { none: 'quarantine', quarantine: 'reject', reject: null };

export interface ReadinessInput {
  /** The newest aggregate report's policy_published, as stored (null before any report). */
  published: Record<string, unknown> | null;
  legitimateMessages: number;
  affectedMessages: number;
  /** Distinct days of the window with reported mail. */
  reportDays: number;
  /** The authorised senders failing DMARC, busiest first (named in the blocker). */
  failingSenders: string[];
  /** The `_dmarc` value recordsToPublish gives (the present record with our rua/ruf). */
  dmarcRecord: string;
}

/**
 * Whether the domain can move to the next DMARC policy. With DMARCbis `t=y` receivers apply one step
 * less than `p` (quarantine → none, reject → quarantine), so the next step is then `p` itself without
 * `t=y`; otherwise none → quarantine → reject.
 */
export function policyReadiness(input: ReadinessInput): PolicyReadiness {
  const parsed = dmarcPolicySchema.safeParse(typeof input.published?.p === 'string' ? input.published.p.toLowerCase() : null);
  const currentPolicy = parsed.success ? parsed.data : null;
  const testing = input.published?.testing === true;
  const nextPolicy = currentPolicy === null ? null : testing && currentPolicy !== 'none' ? currentPolicy : STEP[currentPolicy];
  const affectedShare = share(input.affectedMessages, input.legitimateMessages);

  const blockers: string[] = [];
  if (currentPolicy === null) blockers.push('No DMARC aggregate report has arrived yet: publish the DMARC record with the report address and wait for the first reports.');
  else if (nextPolicy === null) blockers.push('The domain already publishes p=reject: there is no further step.');
  if (currentPolicy !== null && input.reportDays < MIN_REPORT_DAYS) {
    blockers.push(`Reports cover ${input.reportDays} ${input.reportDays === 1 ? 'day' : 'days'} of this window; at least ${MIN_REPORT_DAYS} are needed to judge the next step.`);
  }
  if (currentPolicy !== null && input.legitimateMessages === 0) blockers.push('No mail from authorised senders was reported in this window.');
  if (nextPolicy !== null && affectedShare !== null && affectedShare >= FAILING_SHARE) {
    const verb = nextPolicy === 'reject' ? 'rejected' : 'quarantined';
    const who = input.failingSenders.length > 0 ? `: fix ${input.failingSenders.slice(0, 3).join(', ')} first` : '';
    blockers.push(
      `${input.affectedMessages} of ${input.legitimateMessages} messages from authorised senders (${(affectedShare * 100).toFixed(2)}%) fail DMARC and would be ${verb} at p=${nextPolicy}${who}.`,
    );
  }
  const ready = nextPolicy !== null && blockers.length === 0;
  return {
    currentPolicy,
    testing,
    nextPolicy,
    legitimateMessages: input.legitimateMessages,
    affectedMessages: input.affectedMessages,
    affectedShare,
    ready,
    blockers,
    record: ready && nextPolicy ? withPolicy(input.dmarcRecord, nextPolicy) : null,
  };
}

/** The record with `p` set and `t` dropped; other tags (rua, ruf, sp, pct…) kept in their order. */
export function withPolicy(record: string, policy: DmarcPolicy): string {
  const tags = record
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
    .filter((part) => part.split('=')[0]?.trim().toLowerCase() !== 't');
  const at = tags.findIndex((part) => part.split('=')[0]?.trim().toLowerCase() === 'p');
  if (at === -1) tags.splice(1, 0, `p=${policy}`);
  else tags[at] = `p=${policy}`;
  return tags.join('; ');
}
