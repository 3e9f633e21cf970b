import type { MailTestAnalysis, MailTestSession } from '@sendwell/contracts';
import type { AnalysisPart, MailTestAnalysisDeps } from './types.js';

/** SPF (MAIL FROM and HELO), every DKIM signature, DMARC with alignment, ARC and BIMI of the message. */
export async function readAuthentication(raw: Buffer, session: MailTestSession, deps: MailTestAnalysisDeps): Promise<AnalysisPart<MailTestAnalysis['authentication']>> {
  void raw;
  void session;
  void deps;
  throw new Error('readAuthentication: not built yet');
}
