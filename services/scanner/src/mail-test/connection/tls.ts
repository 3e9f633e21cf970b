import type { MailTestAnalysis, MailTestFinding, MailTestSession } from '@sendwell/contracts';
import { finding } from '../finding.js';

type Tls = MailTestAnalysis['connection']['tls'];

/** Protocols older than TLS 1.2, which RFC 8996 deprecates and large receivers no longer accept. */
const OLD_PROTOCOLS = new Set(['sslv2', 'sslv3', 'tlsv1', 'tlsv1.1']);

/** TLS as the intake saw it: none is an error for bulk senders, anything below TLS 1.2 a warning. */
export function readTls(session: MailTestSession): { value: Tls; findings: MailTestFinding[] } {
  const tls = session.tls;
  if (tls === null) {
    return {
      value: { used: false, protocol: null, cipher: null },
      findings: [
        finding('connection', {
          code: 'TLS_NOT_USED',
          severity: 'error',
          title: 'The message was sent without encryption',
          explanation: 'The sending server did not use STARTTLS, so the message crossed the Internet in plain text. Gmail, Yahoo and Microsoft require TLS for bulk senders and mark unencrypted mail as such.',
          fix: 'Enable STARTTLS on the sending server (or ask your provider to); every major mailbox provider offers it.',
          reference: 'Gmail sender guidelines',
          points: 1.5,
        }),
      ],
    };
  }
  const value: Tls = { used: true, protocol: tls.protocol, cipher: tls.cipher };
  if (tls.protocol === null || !OLD_PROTOCOLS.has(tls.protocol.toLowerCase())) return { value, findings: [] };
  return {
    value,
    findings: [
      finding('connection', {
        code: 'TLS_OUTDATED',
        severity: 'warning',
        title: `The message was sent over ${tls.protocol}`,
        explanation: `${tls.protocol} is deprecated: it has known weaknesses and a growing number of receivers refuse it, which leaves the mail unencrypted or undelivered.`,
        fix: 'Enable TLS 1.2 and TLS 1.3 on the sending server and turn the older protocols off.',
        reference: 'RFC 8996 §2',
        points: 0.5,
      }),
    ],
  };
}
