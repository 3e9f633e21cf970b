import type { DkimSignatureResult, MailTestAnalysis, MailTestGroup } from '@sendwell/contracts';
import { Badge } from '@/components/ui/badge';
import { byteSize, linkFlags, yesNo } from '../lib/mail-test-display';
import { DetailList } from './detail-list';
import { VerdictBadge } from './verdict-badge';

type Analysis = MailTestAnalysis;

function ConnectionDetails({ connection }: { connection: Analysis['connection'] }) {
  const { reverseDns, tls, blocklists } = connection;
  return (
    <DetailList
      testId="details-connection"
      rows={[
        ['Client address', <code key="ip">{connection.clientAddress}</code>],
        ['Reverse DNS', reverseDns.names.length ? reverseDns.names.join(', ') : 'No PTR name'],
        ['Forward-confirmed', reverseDns.forwardConfirmed ? `Yes (${reverseDns.confirmedName ?? reverseDns.names[0] ?? ''})` : 'No'],
        ['HELO', connection.helo],
        ['TLS', tls.used ? [tls.protocol, tls.cipher].filter(Boolean).join(', ') || 'Used' : 'Not used: the message came in plain text'],
        [
          'Block lists',
          blocklists.length ? (
            <ul className="space-y-1">
              {blocklists.map((b) => (
                <li key={b.list}>
                  {b.list}: {b.listed ? <Badge variant="destructive">listed{b.answer ? ` (${b.answer})` : ''}</Badge> : 'not listed'}
                </li>
              ))}
            </ul>
          ) : (
            'No block list was checked'
          ),
        ],
      ]}
    />
  );
}

function SpfVerdict({ verdict }: { verdict: Analysis['authentication']['spf']['mailFrom'] }) {
  return (
    <span className="space-x-2">
      <VerdictBadge result={verdict.result} />
      <span>{verdict.domain ?? 'no domain'}</span>
      <span className="block text-muted-foreground">{verdict.explanation}</span>
    </span>
  );
}

function DkimSignature({ signature }: { signature: DkimSignatureResult }) {
  return (
    <li className="space-y-1 rounded-md border p-2" data-testid="dkim-signature">
      <p className="space-x-2">
        <VerdictBadge result={signature.result} />
        <span className="font-medium">
          d={signature.domain} s={signature.selector}
        </span>
      </p>
      <p>
        {signature.algorithm}
        {signature.keyBits ? `, ${signature.keyBits}-bit key` : ''}, {signature.bodyLength === null ? 'whole body signed' : `l=${signature.bodyLength} (only that many body bytes signed)`}
      </p>
      <p>Signed headers: {signature.signedHeaders.join(', ') || 'none'}</p>
      <p>Aligned with From: {yesNo(signature.aligned)}</p>
      {signature.reason ? <p className="text-muted-foreground">{signature.reason}</p> : null}
    </li>
  );
}

function AuthenticationDetails({ authentication }: { authentication: Analysis['authentication'] }) {
  const { spf, dkim, dmarc, arc, bimi } = authentication;
  return (
    <DetailList
      testId="details-authentication"
      rows={[
        ['SPF (MAIL FROM)', <SpfVerdict key="mf" verdict={spf.mailFrom} />],
        ['SPF (HELO)', <SpfVerdict key="helo" verdict={spf.helo} />],
        [
          'DKIM',
          dkim.length ? (
            <ul className="space-y-2">
              {dkim.map((s) => (
                <DkimSignature key={`${s.domain}/${s.selector}`} signature={s} />
              ))}
            </ul>
          ) : (
            'No DKIM signature'
          ),
        ],
        [
          'DMARC',
          <span key="dmarc" className="space-y-1">
            <span className="block space-x-2">
              <VerdictBadge result={dmarc.result} />
              <span>{dmarc.domain ?? 'no From domain'}</span>
              {dmarc.policy ? <span>p={dmarc.policy}</span> : null}
            </span>
            <span className="block">
              SPF aligned: {yesNo(dmarc.spfAligned)}, DKIM aligned: {yesNo(dmarc.dkimAligned)}
            </span>
            <code className="block break-all text-xs text-muted-foreground">{dmarc.record ?? 'No DMARC record published'}</code>
          </span>,
        ],
        [
          'ARC',
          <span key="arc" className="space-x-2">
            <VerdictBadge result={arc.result} />
            <span>{arc.instances ? `${arc.instances} ${arc.instances === 1 ? 'set' : 'sets'}` : 'no ARC set'}</span>
            {arc.reason ? <span className="block text-muted-foreground">{arc.reason}</span> : null}
          </span>,
        ],
        [
          'BIMI',
          <span key="bimi" className="space-x-2">
            <VerdictBadge result={bimi.result} />
            {bimi.location ? <span className="break-all">logo {bimi.location}</span> : null}
            {bimi.authority ? <span className="break-all">certificate {bimi.authority}</span> : null}
            {bimi.reason ? <span className="block text-muted-foreground">{bimi.reason}</span> : null}
          </span>,
        ],
      ]}
    />
  );
}

function HeadersDetails({ headers }: { headers: Analysis['headers'] }) {
  const { listUnsubscribe } = headers;
  const unsubscribe = [listUnsubscribe.https, listUnsubscribe.mailto].filter(Boolean).join(', ');
  return (
    <DetailList
      testId="details-headers"
      rows={[
        ['From', headers.from],
        ['Subject', headers.subject],
        ['Date', headers.date],
        ['Message-ID', headers.messageId],
        ['Reply-To', headers.replyTo],
        ['List-Unsubscribe', unsubscribe],
        ['One-click unsubscribe', yesNo(listUnsubscribe.oneClick)],
        ['Precedence', headers.precedence],
        ['Feedback-ID', headers.feedbackId],
      ]}
    />
  );
}

function LinkRow({ link }: { link: Analysis['content']['links'][number] }) {
  const flags = linkFlags(link);
  return (
    <li className="space-y-0.5" data-testid="content-link">
      <code className="block break-all text-xs">{link.href}</code>
      {link.text ? <span className="block text-muted-foreground">“{link.text}”</span> : null}
      {flags.length ? (
        <span className="flex flex-wrap gap-1">
          {flags.map((flag) => (
            <Badge key={flag} variant="destructive" className="normal-case">
              {flag}
            </Badge>
          ))}
        </span>
      ) : null}
    </li>
  );
}

function ContentDetails({ content }: { content: Analysis['content'] }) {
  const parts = [content.textPart && 'plain text', content.htmlPart && 'HTML'].filter(Boolean).join(' and ');
  return (
    <DetailList
      testId="details-content"
      rows={[
        ['Size', byteSize(content.sizeBytes)],
        ['Parts', parts || 'No text or HTML part'],
        ['Words in the HTML', content.htmlPart ? String(content.htmlWords) : null],
        ['Images', String(content.images)],
        [
          `Links (${content.links.length})`,
          content.links.length ? (
            <ul className="space-y-2">
              {content.links.map((link, i) => (
                <LinkRow key={`${i}:${link.href}`} link={link} />
              ))}
            </ul>
          ) : (
            'No links'
          ),
        ],
      ]}
    />
  );
}

/** What the analysis saw for one group, below that group's findings. */
export function GroupDetails({ group, analysis }: { group: MailTestGroup; analysis: Analysis }) {
  switch (group) {
    case 'connection':
      return <ConnectionDetails connection={analysis.connection} />;
    case 'authentication':
      return <AuthenticationDetails authentication={analysis.authentication} />;
    case 'headers':
      return <HeadersDetails headers={analysis.headers} />;
    case 'content':
      return <ContentDetails content={analysis.content} />;
  }
}
