import { mailTestAnalysisSchema, type MailTestAnalysis, type MailTestFinding, type MailTestSession } from '@sendwell/contracts';
import { readAuthentication } from './authentication.js';
import { readConnection } from './connection.js';
import { readContent } from './content.js';
import { readHeaders } from './headers.js';
import { finding } from './finding.js';
import { parseMessage } from './parse-message.js';
import { scoreOf } from './score.js';
import type { AnalysisPart, MailTestAnalysisDeps } from './types.js';

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/**
 * Reads one test message end to end: the connection and authentication (DNS-bound) run while the
 * message is parsed and its headers and content read; then the findings that need two parts, the
 * findings ordered by severity (part order kept within one), and the score.
 */
export async function analyseMailTest(raw: Buffer, session: MailTestSession, deps: MailTestAnalysisDeps): Promise<MailTestAnalysis> {
  const messageParts = parseMessage(raw).then(async (message) => ({
    headers: readHeaders(message, new Date(session.receivedAt)),
    content: await readContent(message, deps),
  }));
  const [connection, authentication, { headers, content }] = await Promise.all([readConnection(session, deps), readAuthentication(raw, session, deps), messageParts]);

  const unsubscribe = checkOneClickSigned(headers.value.listUnsubscribe, authentication.value.dkim);
  const findings = [...connection.findings, ...authentication.findings, ...headers.findings, ...unsubscribe.findings, ...content.findings].sort(
    (a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity],
  );
  return mailTestAnalysisSchema.parse({
    connection: connection.value,
    authentication: authentication.value,
    headers: { ...headers.value, listUnsubscribe: unsubscribe.value },
    content: content.value,
    findings,
    score: scoreOf(findings),
  });
}

type ListUnsubscribe = MailTestAnalysis['headers']['listUnsubscribe'];

/**
 * RFC 8058 §4: one-click counts only when a valid DKIM signature covers both List-Unsubscribe and
 * List-Unsubscribe-Post; otherwise anyone relaying the message could point the POST elsewhere.
 */
export function checkOneClickSigned(listUnsubscribe: ListUnsubscribe, dkim: MailTestAnalysis['authentication']['dkim']): AnalysisPart<ListUnsubscribe> {
  if (!listUnsubscribe.oneClick) return { value: listUnsubscribe, findings: [] };
  const covered = dkim.some(
    (signature) => signature.result === 'pass' && signature.signedHeaders.includes('list-unsubscribe') && signature.signedHeaders.includes('list-unsubscribe-post'),
  );
  if (covered) return { value: listUnsubscribe, findings: [] };
  const unsigned: MailTestFinding = finding('headers', {
    code: 'UNSUBSCRIBE_NOT_SIGNED',
    severity: 'warning',
    title: 'The unsubscribe headers are not signed',
    explanation:
      'One-click unsubscribe only counts when a valid DKIM signature covers both List-Unsubscribe and List-Unsubscribe-Post; without it Gmail and Yahoo treat the message as having no one-click unsubscribe.',
    fix: 'Add list-unsubscribe and list-unsubscribe-post to the h= list of your DKIM signature (most sending services have a setting for it) and make sure the signature passes.',
    reference: 'RFC 8058 §4',
    points: 1,
  });
  return { value: { ...listUnsubscribe, oneClick: false }, findings: [unsigned] };
}
