import type { RequirementEvidence } from '@sendwell/contracts';
import type { MailTestEvidence, SourceEvidence } from './evidence.js';
import { listed } from './format.js';

/** What the latest test message shows: how it was sent (connection), authenticated and formed. */
export function mailTestEvidence(test: MailTestEvidence): SourceEvidence {
  const observedAt = test.receivedAt.toISOString();
  const evidence = (met: boolean, detail: string): RequirementEvidence => ({ source: 'mail_test', status: met ? 'met' : 'unmet', detail, observedAt });
  const { connection, authentication: auth, headers } = test.analysis;

  const mailFrom = auth.spf.mailFrom;
  const spfDomain = mailFrom.domain ?? 'its MAIL FROM domain';
  const spf = evidence(
    mailFrom.result === 'pass',
    mailFrom.result === 'pass' ? `The test message passed SPF for ${spfDomain}.` : `The test message got SPF ${mailFrom.result} for ${spfDomain}: ${mailFrom.explanation}`,
  );

  const passing = auth.dkim.find((s) => s.result === 'pass');
  const failing = auth.dkim.map((s) => `d=${s.domain} s=${s.selector}: ${s.reason ?? s.result}`);
  const dkim = evidence(
    passing !== undefined,
    passing
      ? `The test message carried a passing DKIM signature (d=${passing.domain}, selector ${passing.selector}).`
      : auth.dkim.length === 0
        ? 'The test message carried no DKIM signature.'
        : `None of the test message's DKIM signatures passed (${failing.join('; ')}).`,
  );

  const fromDomain = auth.dmarc.domain ?? headers.fromDomain ?? 'its From domain';
  const dmarc = evidence(
    auth.dmarc.record !== null,
    auth.dmarc.record !== null ? `The test message's From domain ${fromDomain} has a DMARC record: ${auth.dmarc.record}` : `No DMARC record was found for the test message's From domain ${fromDomain}.`,
  );

  const aligned = [auth.dmarc.spfAligned ? 'SPF' : null, auth.dmarc.dkimAligned ? 'DKIM' : null].filter((x) => x !== null);
  const alignment = evidence(
    auth.dmarc.result === 'pass',
    auth.dmarc.result === 'pass'
      ? `The test message passed DMARC (${listed(aligned) || 'aligned'} aligned with ${fromDomain}).`
      : `The test message did not pass DMARC (result ${auth.dmarc.result}): ${aligned.length > 0 ? `only ${listed(aligned)} aligned` : `neither SPF nor DKIM aligned with ${fromDomain}`}.`,
  );

  const rdns = connection.reverseDns;
  const reverseDns = evidence(
    rdns.forwardConfirmed,
    rdns.forwardConfirmed
      ? `The sending address ${connection.clientAddress} has forward-confirmed reverse DNS (${rdns.confirmedName ?? rdns.names[0] ?? 'confirmed'}).`
      : `The sending address ${connection.clientAddress} has no forward-confirmed reverse DNS (${rdns.names.length > 0 ? `its PTR ${listed(rdns.names)} does not resolve back to it` : 'no PTR name'}).`,
  );

  const tls = evidence(
    connection.tls.used,
    connection.tls.used ? `The test message was delivered over TLS${connection.tls.protocol ? ` (${connection.tls.protocol})` : ''}.` : 'The test message was delivered without TLS.',
  );

  const unsubscribe = headers.listUnsubscribe;
  const oneClick = unsubscribe.oneClick && unsubscribe.https !== null;
  const lacking = [unsubscribe.https === null ? 'a List-Unsubscribe https address' : null, unsubscribe.oneClick ? null : 'List-Unsubscribe-Post: List-Unsubscribe=One-Click'].filter((x) => x !== null);
  const oneClickUnsubscribe = evidence(
    oneClick,
    oneClick
      ? `The test message offers one-click unsubscribe (${unsubscribe.https}).`
      : `The test message has no one-click unsubscribe: it lacks ${listed(lacking)}. Transactional mail is exempt; marketing and subscribed mail need it.`,
  );

  const absent = [headers.from ? null : 'From', headers.date ? null : 'Date', headers.messageId ? null : 'Message-ID'].filter((x) => x !== null);
  const messageFormat = evidence(absent.length === 0, absent.length === 0 ? 'The test message has a From, a Date and a Message-ID header.' : `The test message has no ${listed(absent)} header.`);

  return { spf, dkim, dmarc, alignment, reverse_dns: reverseDns, tls, one_click_unsubscribe: oneClickUnsubscribe, message_format: messageFormat };
}
