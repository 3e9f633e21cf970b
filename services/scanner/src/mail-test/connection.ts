import type { MailTestAnalysis, MailTestSession } from '@sendwell/contracts';
import { parseIp } from '../checks/shared/ip.js';
import { readBlocklists } from './connection/blocklists.js';
import { heloFindings } from './connection/helo.js';
import { readReverseDns } from './connection/reverse-dns.js';
import { readTls } from './connection/tls.js';
import type { AnalysisPart, MailTestAnalysisDeps } from './types.js';

/** The connection the message came over: reverse DNS (FCrDNS), HELO, TLS, the address on the block lists. */
export async function readConnection(session: MailTestSession, deps: MailTestAnalysisDeps): Promise<AnalysisPart<MailTestAnalysis['connection']>> {
  // A dual-stack listener reports IPv4 clients as ::ffff:192.0.2.1; every lookup wants 192.0.2.1.
  const clientAddress = parseIp(session.clientAddress.trim())?.text ?? session.clientAddress;
  const [reverseDns, helo, blocklists] = await Promise.all([
    readReverseDns(deps.resolver, clientAddress),
    heloFindings(deps.resolver, session.helo, clientAddress),
    readBlocklists(clientAddress, deps),
  ]);
  const tls = readTls(session);
  return {
    value: { clientAddress, reverseDns: reverseDns.value, helo: session.helo, tls: tls.value, blocklists: blocklists.value },
    findings: [...reverseDns.findings, ...helo, ...tls.findings, ...blocklists.findings],
  };
}
