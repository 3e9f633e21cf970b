import type { EvidenceSource, SenderRequirementId } from '@sendwell/contracts';
import type { VerdictInput } from './evidence.js';

/** The sources that can give evidence on each requirement (complaint_rate: none, only the providers see it). */
export const REQUIREMENT_SOURCES: Record<SenderRequirementId, EvidenceSource[]> = {
  spf: ['dns', 'mail_flow', 'mail_test'],
  dkim: ['dns', 'mail_flow', 'mail_test'],
  dmarc: ['dns', 'mail_test'],
  alignment: ['mail_flow', 'mail_test'],
  reverse_dns: ['mail_flow', 'mail_test'],
  tls: ['mail_test'],
  one_click_unsubscribe: ['mail_test'],
  message_format: ['mail_test'],
  complaint_rate: [],
};

/** What to do about an unmet requirement, in plain words. */
export function unmetFix(id: SenderRequirementId, domain: string): string | null {
  switch (id) {
    case 'spf':
      return `Publish one SPF record for ${domain} that lists every service sending as it (for example v=spf1 include:<service> -all), and make sure each service's MAIL FROM (return-path) domain passes SPF too.`;
    case 'dkim':
      return `Turn on DKIM signing at every service sending as ${domain} and publish the keys they give you in DNS.`;
    case 'dmarc':
      return `Publish a DMARC record at _dmarc.${domain}, p=none at least, with your Sendwell report address as rua (Mail flow shows the exact record).`;
    case 'alignment':
      return `Have each sender sign with DKIM as ${domain} (d=${domain}) or send from a MAIL FROM (return-path) domain under ${domain}; Mail flow lists the senders failing DMARC and how to fix each.`;
    case 'reverse_dns':
      return 'Ask whoever runs each sending address (your mail provider or hosting company) to set a PTR name for it that resolves back to the same address.';
    case 'tls':
      return 'Turn on TLS (STARTTLS) for outgoing mail at your mail server or sending service.';
    case 'one_click_unsubscribe':
      return 'Add List-Unsubscribe with an https address and List-Unsubscribe-Post: List-Unsubscribe=One-Click to marketing and subscribed mail (RFC 8058), and honour requests within two days. Transactional mail (receipts, password resets) is exempt.';
    case 'message_format':
      return 'Make your mail software add exactly one From header, a Date and a Message-ID to every message.';
    case 'complaint_rate':
      return null;
  }
}

/** How to get evidence on a requirement no source could tell: one way per source that gave none. */
export function unknownFix(id: SenderRequirementId, input: Pick<VerdictInput, 'dns' | 'mailFlow' | 'mailTest'>): string | null {
  const ways: string[] = [];
  for (const source of REQUIREMENT_SOURCES[id]) {
    if (source === 'dns') ways.push('run a scan of the domain');
    if (source === 'mail_flow' && input.mailFlow !== 'plan') {
      ways.push(input.mailFlow === null ? 'publish your Sendwell DMARC report address (rua) so aggregate reports arrive' : 'wait for the sending addresses to be looked up (within the hour)');
    }
    if (source === 'mail_test') ways.push(input.mailTest === 'plan' ? 'upgrade to Standard to send a test message to Inbox Testing' : 'send a test message from the domain to Inbox Testing');
  }
  if (ways.length === 0) return null;
  const text = ways.length === 1 ? ways[0]! : `${ways.slice(0, -1).join(', ')} or ${ways[ways.length - 1]!}`;
  return `No evidence yet: ${text}.`;
}
