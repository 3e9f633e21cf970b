import { sendingServiceById, type MailSender, type SenderFix, type SendingService } from '@sendwell/contracts';
import { organisationalDomain } from '../naming/organisational-domain.js';
import type { MailCounts, SourceRow } from './mail-flow.repository.js';
import { share } from './window.js';

export const MAX_SENDERS = 100;
export const MAX_SENDER_ADDRESSES = 20;
/** A sender failing DMARC for at least this share of its mail is given fixes; readiness uses the same bar. */
export const FAILING_SHARE = 0.005;

/** A sender with its counts before shares are taken, and what classification needs. */
export interface SenderGroup extends MailCounts {
  id: string;
  name: string;
  service: SendingService | undefined;
  /** Named by forward-confirmed reverse DNS (a host), not only an address. */
  hasHost: boolean;
  sources: SourceRow[];
}

/**
 * The sender a source address belongs to: the catalogue service the namer matched, else the
 * organisational domain of its confirmed host (all of one operator's servers together), else itself.
 */
function senderKey(row: SourceRow): { id: string; name: string; service: SendingService | undefined; hasHost: boolean } {
  const service = row.serviceId ? sendingServiceById(row.serviceId) : undefined;
  if (service) return { id: `service:${service.id}`, name: service.name, service, hasHost: row.host !== null };
  const org = row.host ? organisationalDomain(row.host) : null;
  if (org) return { id: `host:${org}`, name: org, service: undefined, hasHost: true };
  return { id: `ip:${row.ip}`, name: row.ip, service: undefined, hasHost: false };
}

export function groupSenders(rows: readonly SourceRow[]): SenderGroup[] {
  const groups = new Map<string, SenderGroup>();
  for (const row of rows) {
    const key = senderKey(row);
    let group = groups.get(key.id);
    if (!group) {
      group = { ...key, sources: [], messages: 0, spfAligned: 0, dkimAligned: 0, pass: 0, forwardOverride: 0, spfPassUnaligned: 0, dkimPassUnaligned: 0 };
      groups.set(key.id, group);
    }
    group.sources.push(row);
    group.messages += row.messages;
    group.spfAligned += row.spfAligned;
    group.dkimAligned += row.dkimAligned;
    group.pass += row.pass;
    group.forwardOverride += row.forwardOverride;
    group.spfPassUnaligned += row.spfPassUnaligned;
    group.dkimPassUnaligned += row.dkimPassUnaligned;
  }
  return [...groups.values()].sort((a, b) => b.messages - a.messages || a.id.localeCompare(b.id));
}

/**
 * Whose mail it is. Spoofers fail everything: no alignment and, from an address no one vouches for,
 * at most an SPF or DKIM pass for a domain of their own. So:
 * - forwarded: a catalogue forwarder, or most of the mail carries the reporter's forwarding override
 *   (forwarded, mailing_list, trusted_forwarder) — relayed mail, never a reason to hold the policy back;
 * - authorised: a catalogue sending service (the owner signed up with it, even if it is misconfigured),
 *   or most of its mail passes DMARC, or a named operator (confirmed reverse DNS) whose failing mail
 *   mostly passes SPF or DKIM for its own domain — a real service not yet set up for the domain, which
 *   would lose mail at the next policy step. Erring this way holds the policy back rather than losing mail;
 * - unknown: the rest (spoofing, or a sender nobody set up).
 */
export function categorise(group: SenderGroup): MailSender['category'] {
  if (group.service?.kind === 'forwarder') return 'forwarded';
  if (group.messages > 0 && group.forwardOverride * 2 > group.messages) return 'forwarded';
  if (group.service) return 'authorised';
  if (group.messages > 0 && group.pass * 2 >= group.messages) return 'authorised';
  const failing = group.messages - group.pass;
  const vouched = Math.max(group.spfPassUnaligned, group.dkimPassUnaligned);
  if (group.hasHost && failing > 0 && vouched * 2 > failing) return 'authorised';
  return 'unknown';
}

/** The domain's SPF record with `include` added before its `all` or `redirect=`, or null when it has it already. */
export function spfWithInclude(spf: string, include: string): string | null {
  const terms = spf.trim().split(/\s+/);
  if (terms.some((term) => term.toLowerCase() === include.toLowerCase())) return null;
  const at = terms.findIndex((term, i) => i > 0 && (/^[-+?~]?all$/i.test(term) || term.toLowerCase().startsWith('redirect=')));
  if (at === -1) terms.push(include);
  else terms.splice(at, 0, include);
  return terms.join(' ');
}

const fill = (text: string, domain: string) => text.replaceAll('{domain-dashed}', domain.replaceAll('.', '-')).replaceAll('{domain}', domain);

/**
 * What an authorised sender failing DMARC needs. SPF: when its mail passes SPF for another domain the
 * service uses its own MAIL FROM (bounce) domain and only a custom one under the domain aligns; when SPF
 * fails outright the domain's SPF lacks the service's include. DKIM: the service's own instructions.
 */
export function senderFixes(group: SenderGroup, category: MailSender['category'], domain: string, spfRecord: string | null): SenderFix[] {
  if (category !== 'authorised' || group.messages === 0) return [];
  const failing = group.messages - group.pass;
  if (failing / group.messages < FAILING_SHARE) return [];
  const fixes: SenderFix[] = [];
  const service = group.service;
  if ((group.messages - group.spfAligned) / group.messages >= FAILING_SHARE) {
    const include = service?.fix.spfInclude ?? null;
    const ownMailFrom = group.spfPassUnaligned * 2 > failing;
    // An include the record already has did not help: the mail leaves from another bounce domain.
    const record = include && !ownMailFrom ? (spfRecord ? spfWithInclude(spfRecord, include) : include) : null;
    if (include && record) {
      fixes.push({ kind: 'spf', text: `Add ${include} to the SPF record of ${domain} so ${group.name}'s servers are authorised to send for it.`, record });
    } else {
      fixes.push({
        kind: 'spf',
        text: `Set a custom MAIL FROM (return-path) domain under ${domain} at ${group.name}: its mail is checked against the service's own bounce domain, which does not align with ${domain}.`,
        record: null,
      });
    }
  }
  if ((group.messages - group.dkimAligned) / group.messages >= FAILING_SHARE) {
    const cnames = service?.fix.dkimCnames ?? [];
    fixes.push({
      kind: 'dkim',
      text: service ? fill(service.fix.dkim, domain) : `Have ${group.name} sign with a DKIM key published under ${domain} (d=${domain}), so DKIM aligns.`,
      record: cnames.length > 0 ? cnames.map((c) => `${fill(c.host, domain)}.${domain} CNAME ${fill(c.target, domain)}`).join('\n') : null,
    });
  }
  return fixes;
}

/** The answer's view of a sender. */
export function toMailSender(group: SenderGroup, category: MailSender['category'], fixes: SenderFix[]): MailSender {
  const addresses = [...group.sources].sort((a, b) => b.messages - a.messages || a.ip.localeCompare(b.ip)).slice(0, MAX_SENDER_ADDRESSES);
  const selectors = new Set(group.sources.flatMap((s) => s.dkimSelectors));
  return {
    id: group.id,
    name: group.name,
    serviceId: group.service?.id ?? null,
    category,
    addresses: addresses.map((s) => ({ ip: s.ip, host: s.host, messages: s.messages })),
    addressCount: group.sources.length,
    messages: group.messages,
    spfAligned: share(group.spfAligned, group.messages),
    dkimAligned: share(group.dkimAligned, group.messages),
    dmarcPass: share(group.pass, group.messages),
    dkimSelectors: [...selectors].sort(),
    fixes,
  };
}
