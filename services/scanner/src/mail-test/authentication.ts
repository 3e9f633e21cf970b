import type { MailTestAnalysis, MailTestSession } from '@sendwell/contracts';
import { arcFindings, readArc } from './authentication/arc.js';
import { bimiFindings, readBimi } from './authentication/bimi.js';
import { readDkim } from './authentication/dkim.js';
import { dkimFindings } from './authentication/dkim-findings.js';
import { dmarcFindings, readDmarc } from './authentication/dmarc.js';
import { mailauthResolver } from './authentication/mailauth-resolver.js';
import { readSpf, spfFindings } from './authentication/spf.js';
import type { AnalysisPart, MailTestAnalysisDeps } from './types.js';

/** SPF (MAIL FROM and HELO), every DKIM signature, DMARC with alignment, ARC and BIMI of the message. */
export async function readAuthentication(raw: Buffer, session: MailTestSession, deps: MailTestAnalysisDeps): Promise<AnalysisPart<MailTestAnalysis['authentication']>> {
  // One adapter for DKIM and ARC: mailauth shares its key lookups only with the same resolver function.
  const resolver = mailauthResolver(deps.resolver);
  const [spf, dkim] = await Promise.all([readSpf(deps.resolver, session), readDkim(raw, session, resolver)]);
  const [dmarc, arc] = await Promise.all([readDmarc(deps.resolver, dkim.fromDomain, dkim.fromProblem, spf, dkim.signatures), readArc(dkim.verification, resolver)]);
  const bimi = await readBimi(deps.resolver, dmarc);
  const nullSender = session.mailFrom.trim() === '' || session.mailFrom.trim() === '<>';
  return {
    value: { spf, dkim: dkim.signatures, dmarc: dmarc.value, arc, bimi },
    findings: [...spfFindings(spf, nullSender), ...dkimFindings(dkim), ...dmarcFindings(dmarc), ...arcFindings(arc), ...bimiFindings(bimi)],
  };
}
