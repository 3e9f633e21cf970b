import type { DkimSignatureResult, MailTestFinding } from '@sendwell/contracts';
import { RSA_MIN_BITS, type DkimReading } from './dkim.js';
import { finding } from '../finding.js';
import { MAX_VERIFIED_SIGNATURES } from './signature-cap.js';

const label = (signature: DkimSignatureResult): string => `d=${signature.domain || '?'} s=${signature.selector || '?'}`;

/** One finding per problem kind, naming the signatures it concerns, so many bad signatures cost no more than one. */
export function dkimFindings({ signatures, dropped, fromDomain }: Pick<DkimReading, 'signatures' | 'dropped' | 'fromDomain'>): MailTestFinding[] {
  const findings: MailTestFinding[] = [];
  if (signatures.length === 0) {
    findings.push(
      finding('authentication', {
        code: 'DKIM_MISSING',
        severity: 'error',
        title: 'The message has no DKIM signature',
        explanation: 'DKIM proves the message comes from your domain and was not changed on the way. Gmail and Yahoo require it of bulk senders, and without it DMARC rests on SPF alone, which breaks when mail is forwarded.',
        fix: 'Turn on DKIM signing at your mail provider or server and publish the public key it gives you at <selector>._domainkey.<your domain>.',
        reference: 'Gmail sender guidelines',
        points: 2,
      }),
    );
    return findings;
  }
  const passing = signatures.filter((signature) => signature.result === 'pass');
  const none = passing.length === 0;
  // A signature that fails for a short key or an unsigned From has its own finding, which says why.
  const weak = signatures.filter((signature) => signature.keyBits !== null && signature.keyBits < RSA_MIN_BITS);
  const fromUnsigned = signatures.filter((signature) => signature.signedHeaders.length > 0 && !signature.signedHeaders.includes('from'));
  const failing = signatures.filter((signature) => signature.result !== 'pass' && !weak.includes(signature) && !fromUnsigned.includes(signature));
  // Without any valid signature the message counts as unsigned; beside a valid one a bad one costs little.
  const cost = none ? 1.5 : 0.5;
  if (failing.length > 0) {
    findings.push(
      finding('authentication', {
        code: 'DKIM_FAIL',
        severity: none ? 'error' : 'warning',
        title: failing.length === 1 ? `The DKIM signature ${label(failing[0] as DkimSignatureResult)} does not verify` : `${failing.length} DKIM signatures do not verify`,
        explanation:
          `${failing.map((signature) => `${label(signature)}: ${signature.reason ?? signature.result}`).slice(0, 5).join('; ')}.` +
          (none ? ' With no valid signature receivers treat the message as unsigned, or as tampered with.' : ' Another signature does verify, so receivers still have one to go by.'),
        fix: 'Sign as the last step before sending (nothing may change the signed headers or the body afterwards: footers, tracking rewrites, line wrapping), and publish the signing key at the selector named by s=.',
        reference: 'RFC 6376 §6.1',
        points: cost,
      }),
    );
  }
  if (weak.length > 0) {
    findings.push(
      finding('authentication', {
        code: 'DKIM_KEY_TOO_SHORT',
        severity: 'error',
        title: `DKIM key under ${RSA_MIN_BITS} bits (${weak.map((signature) => `${label(signature)}: ${signature.keyBits}`).join(', ')})`,
        explanation: `Keys this short can be broken, so receivers ignore signatures made with them: the message counts as unsigned.`,
        fix: 'Generate a 2048-bit RSA key, publish it under a new selector, switch signing to it, then remove the old key.',
        reference: 'RFC 8301 §3.2',
        points: cost,
      }),
    );
  }
  const borderline = signatures.filter((signature) => signature.keyBits === RSA_MIN_BITS);
  if (borderline.length > 0) {
    findings.push(
      finding('authentication', {
        code: 'DKIM_KEY_1024',
        severity: 'warning',
        title: `DKIM key of only ${RSA_MIN_BITS} bits (${borderline.map(label).join(', ')})`,
        explanation: '1024-bit RSA keys are the minimum receivers still accept and are within reach of well-funded attackers; 2048 bits is the recommended size.',
        fix: 'Generate a 2048-bit RSA key, publish it under a new selector, switch signing to it, then remove the old key.',
        reference: 'RFC 8301 §3.2',
        points: 0.5,
      }),
    );
  }
  const limited = signatures.filter((signature) => signature.bodyLength !== null);
  if (limited.length > 0) {
    findings.push(
      finding('authentication', {
        code: 'DKIM_BODY_LENGTH_LIMIT',
        severity: 'warning',
        title: `A DKIM signature covers only part of the body (l=) (${limited.map(label).join(', ')})`,
        explanation: 'With l= the signature covers only the first bytes of the body, so anyone can append content (a phishing link, another message part) and the signature still verifies. Some receivers distrust such signatures.',
        fix: 'Sign the whole body: remove the body length option (l=) from your DKIM signing settings.',
        reference: 'RFC 6376 §8.2',
        points: 0.5,
      }),
    );
  }
  if (fromUnsigned.length > 0) {
    findings.push(
      finding('authentication', {
        code: 'DKIM_FROM_NOT_SIGNED',
        severity: 'error',
        title: `A DKIM signature does not cover the From header (${fromUnsigned.map(label).join(', ')})`,
        explanation: 'The From header must be signed (h= must list it): otherwise anyone could put another sender on the signed message, and receivers ignore the signature.',
        fix: 'Include "from" in the signed headers (h=) of your DKIM signing settings.',
        reference: 'RFC 6376 §5.4',
        points: cost,
      }),
    );
  }
  if (passing.length > 0 && !passing.some((signature) => signature.aligned)) {
    findings.push(
      finding('authentication', {
        code: 'DKIM_NOT_ALIGNED',
        severity: 'warning',
        title: `No valid DKIM signature is from the From domain${fromDomain !== null ? ` ${fromDomain}` : ''}`,
        explanation: `The message is signed by ${[...new Set(passing.map((signature) => signature.domain))].slice(0, 3).join(', ')}, not by the domain in From. DMARC only counts a signature whose d= shares the From domain's organisational domain, so DMARC rests on SPF alone.`,
        fix: `Have your provider sign with your own domain (d=${fromDomain ?? 'your domain'}): most offer "custom DKIM" with a CNAME or TXT key you publish.`,
        reference: 'RFC 7489 §3.1.1',
        points: 1,
      }),
    );
  }
  if (dropped > 0) {
    findings.push(
      finding('authentication', {
        code: 'DKIM_TOO_MANY_SIGNATURES',
        severity: 'info',
        title: `Only the first ${MAX_VERIFIED_SIGNATURES} DKIM signatures were verified`,
        explanation: `The message carries ${MAX_VERIFIED_SIGNATURES + dropped} DKIM-Signature headers; the ${dropped} after the first ${MAX_VERIFIED_SIGNATURES} were not checked. Receivers also stop after a few, and so many signatures usually mean a misconfigured relay that signs again at each hop.`,
        fix: 'Sign each message once or twice (your domain, perhaps your provider), not at every hop.',
        reference: 'RFC 6376 §6.1',
        points: 0,
      }),
    );
  }
  return findings;
}
