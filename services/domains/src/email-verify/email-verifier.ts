import { randomBytes } from 'node:crypto';
import type { promises as dns } from 'node:dns';
import { emailVerificationReasons, type EmailVerificationResult, type EmailVerificationStatus } from '@sendwell/contracts';
import type { Logger, OutboundPolicy } from '@sendwell/server-kit';
import { pickMailHostAddress } from '@sendwell/smtp-client';
import { parseAddress, type ParsedAddress } from './address-syntax.js';
import { isDisposableDomain } from './disposable-domains.js';
import { addressLookup, findMailHosts, type MailHosts } from './mail-hosts.js';
import { isRoleBased } from './role-accounts.js';
import { probeRecipients, type SmtpReply } from './smtp-probe.js';
import { suggestDomain } from './typo-suggestion.js';

export interface EmailVerifierConfig {
  /** RCPT probing and catch-all detection (EMAIL_VERIFY_SMTP_PROBE); off, the verdict stops at DNS. */
  smtpProbe: boolean;
  smtpPort: number;
  /** Our EHLO name and the envelope sender's domain (probe@this). */
  heloDomain: string;
  /** Per step of the SMTP dialogue; the whole dialogue gets three times this. */
  smtpTimeoutMs: number;
  /** Mail hosts tried, in preference order, when a connection fails. */
  maxMailHosts?: number;
  /** The outbound guard: an MX on a private address (or a special-use name) is never connected to. */
  outbound: OutboundPolicy;
}

export interface Verdict {
  status: EmailVerificationStatus;
  description: string;
}

/** The checks of part 2 §2.15 in order, the first decisive one giving the verdict. */
export class EmailVerifier {
  constructor(
    private readonly resolver: dns.Resolver,
    private readonly config: EmailVerifierConfig,
    private readonly logger: Logger,
  ) {}

  async verify(email: string, now = new Date()): Promise<EmailVerificationResult> {
    let verdict: Verdict;
    try {
      verdict = await this.verdict(email);
    } catch (error) {
      this.logger.error({ err: error }, 'email verification failed');
      verdict = { status: 'error', description: 'The address could not be verified because of an internal error. Please try again.' };
    }
    return { email, category: emailVerificationReasons[verdict.status].category, status: verdict.status, description: verdict.description, timestamp: now.toISOString() };
  }

  async verdict(email: string): Promise<Verdict> {
    const syntax = parseAddress(email);
    if (!syntax.ok) return { status: 'syntax_error', description: `${syntax.problem}.` };
    const address = syntax.address;

    const suggestion = suggestDomain(address.asciiDomain);
    if (suggestion) {
      return { status: 'typo', description: `The domain ${address.domain} looks like a typo. Did you mean ${address.local}@${suggestion}?` };
    }
    if (isDisposableDomain(address.asciiDomain)) {
      return { status: 'disposable', description: `${address.domain} is a disposable (temporary) email provider; such mailboxes stop working soon after sign-up.` };
    }

    const hosts = await findMailHosts(this.resolver, address.asciiDomain);
    const dnsVerdict = this.dnsVerdict(address, hosts);
    if (dnsVerdict) return dnsVerdict;
    const mailHosts = (hosts as Extract<MailHosts, { hosts: string[] }>).hosts;
    const role = isRoleBased(address.local);

    if (!this.config.smtpProbe) {
      if (role) return roleVerdict(address);
      return {
        status: 'valid',
        description: `The address is well formed and ${address.domain} accepts email (${describeHosts(hosts)}). The mailbox itself was not probed.`,
      };
    }

    const probed = await this.probe(address, mailHosts);
    // A mailbox the server refuses outweighs the role warning; an accepted one does not.
    if (probed.status === 'mailbox_not_found' || probed.status === 'mailbox_full') return probed;
    if (role) return roleVerdict(address);
    return probed;
  }

  private dnsVerdict(address: ParsedAddress, hosts: MailHosts): Verdict | null {
    switch (hosts.kind) {
      case 'nxdomain':
        return { status: 'mailbox_not_found', description: `The domain ${address.domain} does not exist.` };
      case 'no-mail-host':
        return { status: 'mailbox_not_found', description: `The domain ${address.domain} has no mail server (no MX, A or AAAA record), so it cannot receive email.` };
      case 'null-mx':
        return { status: 'blocked', description: `The domain ${address.domain} does not accept email: it publishes a null MX record (RFC 7505).` };
      case 'lookup-failed':
        return { status: 'unknown', description: `The mail servers of ${address.domain} could not be looked up (${hosts.error}). Please try again later.` };
      default:
        return null;
    }
  }

  private async probe(address: ParsedAddress, hosts: string[]): Promise<Verdict> {
    const recipient = `${address.local}@${address.asciiDomain}`;
    const decoy = `sendwell-probe-${randomBytes(6).toString('hex')}@${address.asciiDomain}`;
    const smtpUtf8 = /[^\x20-\x7e]/.test(address.local);
    let lastError = 'no mail host';
    let probed = false;
    let refused: { host: string; reason: string } | null = null;
    const lookup = addressLookup(this.resolver, (host, error) => this.logger.debug({ err: error, host }, 'mail host lookup failed'));
    for (const host of hosts.slice(0, this.config.maxMailHosts ?? 2)) {
      // Through the outbound guard: the name, then each address; the one picked is dialled as an IP so it cannot be resolved differently.
      const picked = await pickMailHostAddress(host, lookup, this.config.outbound);
      if (picked.kind === 'refused-name') {
        refused ??= { host, reason: picked.refused.reason };
        continue;
      }
      if (picked.kind === 'lookup-failed') {
        lastError = picked.error;
        continue;
      }
      if (picked.kind === 'no-address') {
        lastError = `${host} has no address`;
        continue;
      }
      const ip = picked.address;
      if (ip === null) {
        refused ??= { host, reason: picked.refused[0]!.reason };
        continue;
      }
      probed = true;
      const outcome = await probeRecipients({
        host: ip,
        outbound: this.config.outbound,
        port: this.config.smtpPort,
        heloDomain: this.config.heloDomain,
        mailFrom: `probe@${this.config.heloDomain}`,
        recipients: [recipient, decoy],
        stepTimeoutMs: this.config.smtpTimeoutMs,
        deadlineMs: this.config.smtpTimeoutMs * 3,
        smtpUtf8,
      });
      if (outcome.ok) return rcptVerdict(address, host, outcome.rcpt[0]!, outcome.rcpt[1]!);
      this.logger.debug({ host, stage: outcome.stage, error: outcome.error }, 'smtp probe failed');
      lastError = outcome.error;
      // Only a connection failure sends us to the next host; a server that answered has spoken for the domain.
      if (outcome.stage !== 'connect') break;
    }
    if (!probed && refused) {
      return {
        status: 'unknown',
        description: `The mail server of ${address.domain} (${refused.host}) points at a private address (${refused.reason}), so the mailbox was not probed.`,
      };
    }
    return { status: 'unknown', description: `The mail server of ${address.domain} could not confirm the mailbox (${lastError}).` };
  }
}

function roleVerdict(address: ParsedAddress): Verdict {
  return { status: 'role_based', description: `${address.local} is a role address (a team or function, not a person); mail to it often reaches several people or none and draws complaints.` };
}

function describeHosts(hosts: MailHosts): string {
  if (hosts.kind === 'mx') return `mail server ${hosts.hosts[0]}`;
  return 'no MX record, but the domain has an address that receives mail (RFC 5321 §5.1)';
}

/** RFC 3463 enhanced status code in a reply, e.g. "5.1.1". */
function enhancedCode(reply: SmtpReply): string | null {
  return /\b([245]\.\d{1,3}\.\d{1,3})\b/.exec(reply.text)?.[1] ?? null;
}

export type RcptClass = 'accepted' | 'not_found' | 'full' | 'temporary' | 'refused';

/** One RCPT reply: enhanced codes first (they distinguish a policy refusal from an unknown user), then the basic code. */
export function classifyRcpt(reply: SmtpReply): RcptClass {
  if (reply.code === 250 || reply.code === 251) return 'accepted';
  const enhanced = enhancedCode(reply);
  if (enhanced) {
    if (/^[45]\.2\.2$/.test(enhanced)) return 'full';
    if (/^5\.1\.(?:[123]|10)$/.test(enhanced)) return 'not_found';
    if (enhanced.startsWith('5.7.')) return 'refused';
  }
  if (reply.code === 550 || reply.code === 551 || reply.code === 553) return 'not_found';
  if (reply.code === 552) return 'full';
  if (reply.code >= 400 && reply.code < 500) return 'temporary';
  return 'refused';
}

function rcptVerdict(address: ParsedAddress, host: string, real: SmtpReply, decoy: SmtpReply): Verdict {
  const said = `${host} answered ${real.code}`;
  switch (classifyRcpt(real)) {
    case 'not_found':
      return { status: 'mailbox_not_found', description: `The mailbox does not exist: ${said}.` };
    case 'full':
      return { status: 'mailbox_full', description: `The mailbox is full and cannot take new mail: ${said}.` };
    case 'temporary':
      return { status: 'unknown', description: `The mail server deferred the check (${real.code}, often greylisting). Please try again later.` };
    case 'refused':
      return { status: 'unknown', description: `The mail server refused to confirm the mailbox (${real.code}).` };
    case 'accepted':
      if (classifyRcpt(decoy) === 'accepted') {
        return { status: 'catch_all', description: `${address.domain} accepts mail for any address (catch-all), so this mailbox cannot be confirmed.` };
      }
      return { status: 'valid', description: `The mail server of ${address.domain} confirmed the mailbox.` };
  }
}
