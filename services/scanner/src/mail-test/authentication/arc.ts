import type { MailTestAnalysis, MailTestFinding } from '@sendwell/contracts';
import type { ARCData, DKIMVerifyResult, DNSResolver } from 'mailauth';
import { arc } from 'mailauth/lib/arc/index.js';
import { finding } from '../finding.js';

type Arc = MailTestAnalysis['authentication']['arc'];

/**
 * ARC chain validation (RFC 8617 §5.2) by mailauth, on the chain its DKIM verification read (its
 * hidden `arc` part, whose key lookups it shares when given the same resolver).
 */
export async function readArc(verification: DKIMVerifyResult, resolver: DNSResolver): Promise<Arc> {
  const data = verification.arc as ARCData | undefined;
  if (!data) return { result: 'none', instances: 0, reason: null };
  const result = await arc(data, { resolver });
  const chain = Array.isArray(data.chain) ? data.chain.length : 0;
  const instances = Math.max(chain, typeof result.i === 'number' ? result.i : 0);
  const status = result.status.result;
  if (status === 'pass') return { result: 'pass', instances, reason: typeof result.status.comment === 'string' ? result.status.comment : null };
  if (status === 'fail') return { result: 'fail', instances, reason: typeof result.status.comment === 'string' && result.status.comment !== '' ? result.status.comment : 'the ARC chain did not validate' };
  return { result: 'none', instances, reason: null };
}

export function arcFindings(value: Arc): MailTestFinding[] {
  if (value.result !== 'fail') return [];
  return [
    finding('authentication', {
      code: 'ARC_FAIL',
      severity: 'warning',
      title: 'The ARC chain of the message is broken',
      explanation: `The message carries ARC headers (${value.instances} hop${value.instances === 1 ? '' : 's'}) that do not validate (${value.reason ?? 'invalid chain'}). Receivers use a valid chain to trust forwarded mail whose DKIM broke on the way; a broken one counts against the message.`,
      fix: 'If a forwarder or mailing list seals your mail, make sure nothing changes the message after it seals; otherwise remove the ARC headers your own systems add.',
      reference: 'RFC 8617 §5.2',
      points: 0.5,
    }),
  ];
}
