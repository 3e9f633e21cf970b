import type { MailTestAnalysis, MailTestSession } from '@sendwell/contracts';
import { readBlocklists } from './connection/blocklists.js';
import { heloFindings } from './connection/helo.js';
import { readReverseDns } from './connection/reverse-dns.js';
import { readTls } from './connection/tls.js';
import type { AnalysisPart, MailTestAnalysisDeps } from './types.js';

/** The connection the message came over: reverse DNS (FCrDNS), HELO, TLS, the address on the block lists. */
export async function readConnection(session: MailTestSession, deps: MailTestAnalysisDeps): Promise<AnalysisPart<MailTestAnalysis['connection']>> {
  const [reverseDns, helo, blocklists] = await Promise.all([
    readReverseDns(deps.resolver, session.clientAddress),
    heloFindings(deps.resolver, session.helo, session.clientAddress),
    readBlocklists(session.clientAddress, deps),
  ]);
  const tls = readTls(session);
  return {
    value: { clientAddress: session.clientAddress, reverseDns: reverseDns.value, helo: session.helo, tls: tls.value, blocklists: blocklists.value },
    findings: [...reverseDns.findings, ...helo, ...tls.findings, ...blocklists.findings],
  };
}
