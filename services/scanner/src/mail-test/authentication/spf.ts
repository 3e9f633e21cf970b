import type { MailTestAnalysis, MailTestFinding, MailTestSession } from '@sendwell/contracts';
import { checkHost, type CheckHostResult } from '../../checks/spf/evaluate.js';
import type { Resolver } from '../../dns/types.js';
import { finding } from '../finding.js';

type Spf = MailTestAnalysis['authentication']['spf'];
type SpfVerdict = Spf['mailFrom'];

function domainOf(address: string): string {
  const trimmed = address.trim().replace(/^<|>$/g, '');
  return trimmed.slice(trimmed.lastIndexOf('@') + 1).toLowerCase().replace(/\.$/, '');
}

async function verdict(domain: string, run: () => Promise<CheckHostResult>): Promise<SpfVerdict> {
  try {
    const { result, explanation } = await run();
    return { domain: domain === '' ? null : domain, result, explanation };
  } catch (error) {
    // checkHost throws TypeError only for a client address that is not an address.
    if (!(error instanceof TypeError)) throw error;
    return { domain: domain === '' ? null : domain, result: 'none', explanation: error.message };
  }
}

/**
 * SPF by our own evaluator (RFC 7208 check_host) for both identities: MAIL FROM, which is
 * postmaster@<HELO> for the null reverse-path (§2.4), and HELO (§2.3).
 */
export async function readSpf(resolver: Resolver, session: MailTestSession): Promise<Spf> {
  const ip = session.clientAddress;
  const helo = session.helo.trim();
  const mailFromDomain = session.mailFrom.trim() === '' || session.mailFrom.trim() === '<>' ? domainOf(helo) : domainOf(session.mailFrom);
  const sender = session.mailFrom.trim() === '<>' ? '' : session.mailFrom;
  const heloIsName = helo !== '' && !helo.startsWith('[');
  const [mailFrom, heloVerdict] = await Promise.all([
    verdict(mailFromDomain, () => checkHost({ ip, sender, helo }, resolver)),
    heloIsName
      ? verdict(domainOf(helo), () => checkHost({ ip, sender: `postmaster@${helo}`, helo, domain: helo }, resolver))
      : Promise.resolve<SpfVerdict>({ domain: null, result: 'none', explanation: 'the HELO name is not a domain name (empty or an address literal), so it has no SPF record' }),
  ]);
  return { mailFrom, helo: heloVerdict };
}

const REFERENCE = 'RFC 7208 §2.6';

/** What the MAIL FROM verdict means for delivery; the HELO verdict only informs (receivers act on MAIL FROM). */
export function spfFindings({ mailFrom, helo }: Spf, nullSender: boolean): MailTestFinding[] {
  const findings: MailTestFinding[] = [];
  const identity = nullSender ? `the HELO name ${mailFrom.domain ?? ''} (the message had an empty MAIL FROM)` : `the MAIL FROM domain ${mailFrom.domain ?? ''}`;
  switch (mailFrom.result) {
    case 'fail':
      findings.push(
        finding('authentication', {
          code: 'SPF_FAIL',
          severity: 'error',
          title: `SPF fails for ${mailFrom.domain ?? 'the sender'}`,
          explanation: `The SPF record of ${identity} says the sending address may not send its mail (${mailFrom.explanation}). Receivers reject or junk such mail, and it cannot pass DMARC through SPF.`,
          fix: `Add the server or provider you send through to the SPF record of ${mailFrom.domain ?? 'the sending domain'} (e.g. its include: or ip4:), or send through a server the record already names.`,
          reference: REFERENCE,
          points: 2,
        }),
      );
      break;
    case 'softfail':
      findings.push(
        finding('authentication', {
          code: 'SPF_SOFTFAIL',
          severity: 'warning',
          title: `SPF soft-fails for ${mailFrom.domain ?? 'the sender'}`,
          explanation: `The SPF record of ${identity} does not list the sending address and asks receivers to treat its mail with suspicion (~all). It counts as a failure for DMARC.`,
          fix: `Add the server or provider you send through to the SPF record of ${mailFrom.domain ?? 'the sending domain'}.`,
          reference: REFERENCE,
          points: 1.5,
        }),
      );
      break;
    case 'neutral':
    case 'none':
      findings.push(
        finding('authentication', {
          code: mailFrom.result === 'none' ? 'SPF_NONE' : 'SPF_NEUTRAL',
          severity: 'warning',
          title: mailFrom.result === 'none' ? `${mailFrom.domain ?? 'The sender'} has no SPF record` : `SPF is neutral for ${mailFrom.domain ?? 'the sender'}`,
          explanation: `SPF says nothing for ${identity} (${mailFrom.explanation}). Gmail and Yahoo require SPF or DKIM of every sender and both for bulk senders, and without it DMARC can only pass through DKIM.`,
          fix: `Publish an SPF record at ${mailFrom.domain ?? 'the sending domain'} that lists the servers you send from, ending in -all or ~all.`,
          reference: 'Gmail sender guidelines',
          points: 1.5,
        }),
      );
      break;
    case 'permerror':
      findings.push(
        finding('authentication', {
          code: 'SPF_PERMERROR',
          severity: 'error',
          title: `The SPF record of ${mailFrom.domain ?? 'the sender'} is broken`,
          explanation: `Receivers cannot evaluate it (${mailFrom.explanation}), and most treat a permanent error like a failure.`,
          fix: 'Fix the record: one v=spf1 record, valid syntax, at most 10 DNS-querying terms (flatten or drop includes you do not use).',
          reference: 'RFC 7208 §2.6.7',
          points: 1.5,
        }),
      );
      break;
    case 'temperror':
      findings.push(
        finding('authentication', {
          code: 'SPF_TEMPERROR',
          severity: 'warning',
          title: `SPF of ${mailFrom.domain ?? 'the sender'} could not be checked`,
          explanation: `A DNS lookup failed (${mailFrom.explanation}). Receivers that see the same defer the message and try again later.`,
          fix: 'Check that the DNS servers of the domain and of every include answer reliably.',
          reference: 'RFC 7208 §2.6.6',
          points: 0.5,
        }),
      );
      break;
    case 'pass':
      break;
  }
  if (!nullSender && (helo.result === 'fail' || helo.result === 'softfail')) {
    findings.push(
      finding('authentication', {
        code: 'SPF_HELO_FAIL',
        severity: 'info',
        title: `SPF of the HELO name ${helo.domain ?? ''} does not cover the sending address`,
        explanation: 'Receivers decide on the MAIL FROM identity, but some also check the HELO name, and bounces (empty MAIL FROM) are judged by it alone.',
        fix: `Add the sending address to the SPF record of ${helo.domain ?? 'the HELO name'}, usually "v=spf1 a -all".`,
        reference: 'RFC 7208 §2.3',
        points: 0,
      }),
    );
  }
  return findings;
}
