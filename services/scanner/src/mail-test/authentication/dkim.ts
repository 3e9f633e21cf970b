import type { DkimSignatureResult, MailTestSession } from '@sendwell/contracts';
import type { DKIMResult, DKIMVerifyResult, DNSResolver } from 'mailauth';
// Per-protocol entry points: the package root also loads its BIMI module, which needs a newer undici.
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { colonList, parseTagList, tagValue } from '../../checks/shared/tag-list.js';
import { organizationalDomain } from '../../checks/shared/dmarc/org-domain.js';
import { capDkimSignatures } from './signature-cap.js';

/** RFC 8301 §3.2: verifiers must not accept RSA keys under 1024 bits. */
export const RSA_MIN_BITS = 1024;

export interface DkimReading {
  signatures: DkimSignatureResult[];
  /** DKIM-Signature fields beyond the cap, not verified. */
  dropped: number;
  /** The RFC5322.From domain, null when there is not exactly one. */
  fromDomain: string | null;
  /** Why there is no From domain. */
  fromProblem: string | null;
  /** mailauth's verification, whose hidden `arc` part the ARC validation reads. */
  verification: DKIMVerifyResult;
}

/** Relaxed alignment (RFC 7489 §3.1.1): the same organisational domain. */
export function alignedRelaxed(domain: string, fromDomain: string | null): boolean {
  if (fromDomain === null || domain === '') return false;
  return organizationalDomain(domain.toLowerCase().replace(/\.$/, '')) === organizationalDomain(fromDomain);
}

function fromDomainOf(verification: DKIMVerifyResult): { fromDomain: string | null; fromProblem: string | null } {
  if (verification.fromFields === 0) return { fromDomain: null, fromProblem: 'the message has no From header' };
  if (verification.fromFields > 1) return { fromDomain: null, fromProblem: `the message has ${verification.fromFields} From headers` };
  const domains = [...new Set(verification.headerFrom.map((address) => address.slice(address.lastIndexOf('@') + 1).toLowerCase().replace(/\.$/, '')))].filter((domain) => domain !== '');
  if (domains.length === 0) return { fromDomain: null, fromProblem: 'the From header has no address with a domain' };
  if (domains.length > 1) return { fromDomain: null, fromProblem: `the From header names ${domains.length} domains` };
  return { fromDomain: domains[0] as string, fromProblem: null };
}

const withoutSpace = (value: string | undefined): string => (value ?? '').replace(/\s+/g, '');

interface SignatureTags {
  domain: string;
  selector: string;
  algorithm: string;
  bodyLength: number | null;
  signedHeaders: string[];
  b: string;
}

function tagsOf(field: string): SignatureTags {
  const list = parseTagList(field);
  const l = tagValue(list, 'l');
  const bodyLength = l !== undefined && /^\d{1,15}$/.test(l) ? Number(l) : null;
  return {
    domain: (tagValue(list, 'd') ?? '').toLowerCase(),
    selector: tagValue(list, 's') ?? '',
    algorithm: (tagValue(list, 'a') ?? '').toLowerCase(),
    bodyLength,
    signedHeaders: colonList(tagValue(list, 'h') ?? '').map((name) => name.toLowerCase()),
    b: withoutSpace(tagValue(list, 'b')),
  };
}

const KEY_PROBLEMS = new Set(['no key', 'unknown key version', 'unknown key type', 'invalid public key', 'inappropriate hash algorithm', 'key not for email']);

/** mailauth's verdict in the contract's words, with a reason a sender can act on. */
function verdictOf(tags: SignatureTags, result: DKIMResult | undefined): Pick<DkimSignatureResult, 'result' | 'reason' | 'keyBits'> {
  if (!result) return { result: 'permerror', reason: 'the signature could not be processed (an unknown algorithm or canonicalization, or no d= or s=)', keyBits: null };
  const keyBits = result.modulusLength ?? null;
  const comment = typeof result.status.comment === 'string' ? result.status.comment : '';
  const keyName = `${tags.selector}._domainkey.${tags.domain}`;
  switch (result.status.result) {
    case 'pass':
      if (keyBits !== null && keyBits < RSA_MIN_BITS) return { result: 'policy', reason: `the key is only ${keyBits} bits; receivers ignore signatures made with RSA keys under ${RSA_MIN_BITS} bits`, keyBits };
      return { result: 'pass', reason: null, keyBits };
    case 'fail':
      return { result: 'fail', reason: 'the signature does not match the signed header fields: one was changed after signing, or the key in DNS is not the one that signed', keyBits };
    case 'policy':
      return { result: 'policy', reason: 'the signature uses rsa-sha1, which receivers no longer accept', keyBits };
    case 'temperror':
      return { result: 'temperror', reason: `the key at ${keyName} could not be looked up (${comment || 'DNS failure'})`, keyBits };
    default:
      if (comment === 'body hash did not verify') return { result: 'fail', reason: 'the body was changed after signing (its hash does not match bh=)', keyBits };
      if (comment === 'no key') return { result: 'permerror', reason: `there is no DKIM key at ${keyName}`, keyBits };
      if (KEY_PROBLEMS.has(comment)) return { result: 'permerror', reason: `the key at ${keyName} is unusable: ${comment}`, keyBits };
      if (comment === 'expired') return { result: 'neutral', reason: 'the signature had expired (x=) when the message arrived', keyBits };
      if (comment === 'From field not signed') return { result: 'neutral', reason: 'the signature does not cover the From header, so receivers ignore it', keyBits };
      return { result: 'neutral', reason: comment ? `the signature is not valid: ${comment}` : 'the signature is not valid', keyBits };
  }
}

/**
 * Every DKIM-Signature (up to the cap) verified by mailauth against keys from our resolver, and
 * described from its own tags: mailauth leaves out the signatures it cannot process, so results
 * are matched to fields in order by their b= value.
 */
export async function readDkim(raw: Buffer, session: MailTestSession, resolver: DNSResolver): Promise<DkimReading> {
  const capped = capDkimSignatures(raw);
  // minBitLength 1: verify short keys too, so their size is reported; RSA_MIN_BITS is applied above.
  const verification = await dkimVerify(capped.message, { resolver, minBitLength: 1, rejectRsaSha1: true, curTime: new Date(session.receivedAt) });
  const { fromDomain, fromProblem } = fromDomainOf(verification);
  const results = verification.results.filter((result) => result.signingDomain !== undefined);
  let next = 0;
  const signatures = capped.signatures.map((field): DkimSignatureResult => {
    const tags = tagsOf(field);
    const candidate = results[next];
    const matched = candidate !== undefined && withoutSpace(candidate.signature) === tags.b ? candidate : undefined;
    if (matched) next++;
    return {
      domain: tags.domain,
      selector: tags.selector,
      algorithm: tags.algorithm,
      bodyLength: tags.bodyLength,
      signedHeaders: tags.signedHeaders,
      ...verdictOf(tags, matched),
      aligned: alignedRelaxed(tags.domain, fromDomain),
    };
  });
  return { signatures, dropped: capped.dropped, fromDomain, fromProblem, verification };
}
