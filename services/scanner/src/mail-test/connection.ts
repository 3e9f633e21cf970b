import type { MailTestAnalysis, MailTestSession } from '@sendwell/contracts';
import type { AnalysisPart, MailTestAnalysisDeps } from './types.js';

/** The connection the message came over: reverse DNS (FCrDNS), HELO, TLS, the address on the block lists. */
export async function readConnection(session: MailTestSession, deps: MailTestAnalysisDeps): Promise<AnalysisPart<MailTestAnalysis['connection']>> {
  void session;
  void deps;
  throw new Error('readConnection: not built yet');
}
