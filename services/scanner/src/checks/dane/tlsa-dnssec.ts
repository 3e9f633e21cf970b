import type { DnssecValidator, RrsetOutcome } from '../shared/dnssec/validator.js';

/**
 * What DNSSEC says about one MX host's TLSA RRset (RFC 4033 §5): senders use TLSA records only when
 * they validate (secure), ignore them in an unsigned zone (insecure), and do not deliver to a host
 * whose records fail validation (bogus) (RFC 7672 §2.1.1, §2.2). `unknown`: the scanner could not
 * tell (a lookup timed out, the trust anchor failed), which is not the domain's fault.
 */
export type TlsaDnssecState = 'secure' | 'insecure' | 'bogus' | 'unknown';

export interface TlsaDnssec {
  state: TlsaDnssecState;
  /** The zone the RRset was validated in, or found unsigned or bogus in; null when none was reached. */
  zone: string | null;
  /** Why it is not secure, a sentence fragment ("test publishes no DS record for example.test"); null when secure. */
  detail: string | null;
}

/** Worst first: one bogus RRset of the answer (a CNAME, or the TLSA records) makes it all bogus. */
const RANK: ReadonlyArray<RrsetOutcome['state']> = ['bogus', 'indeterminate', 'insecure', 'secure'];

/**
 * The TLSA answer at `tlsaName` validated in the MX host's own zone (often a provider's, not the
 * domain's), through the scan's validator: the DNSSEC check asks it the same question, so it is
 * validated once. A validator failure is `unknown`, never a failed DANE check.
 */
export async function validateTlsa(validator: DnssecValidator, tlsaName: string): Promise<TlsaDnssec> {
  let outcome: Awaited<ReturnType<DnssecValidator['validateAnswer']>>;
  try {
    outcome = await validator.validateAnswer(tlsaName, 'TLSA');
  } catch (error) {
    // Only the error's kind: a socket error's text names addresses of our own network.
    return { state: 'unknown', zone: null, detail: `the DNSSEC lookup failed (${error instanceof Error ? error.name : 'error'})` };
  }
  if (!Array.isArray(outcome)) return { state: 'unknown', zone: null, detail: outcome.detail };
  if (!outcome.some((rrset) => rrset.type === 'TLSA')) return { state: 'unknown', zone: null, detail: `the DNSSEC query for ${tlsaName} returned no TLSA records` };
  const worst = [...outcome].sort((a, b) => RANK.indexOf(a.state) - RANK.indexOf(b.state))[0] as RrsetOutcome;
  // No trust anchor above the name: the scanner's configuration cannot judge it, the zone is not at fault.
  if (worst.state === 'indeterminate' || worst.problem?.code === 'DNSSEC_NO_TRUST_ANCHOR') {
    return { state: 'unknown', zone: worst.zone, detail: worst.problem?.detail ?? null };
  }
  return { state: worst.state, zone: worst.zone, detail: worst.state === 'secure' ? null : (worst.problem?.detail ?? null) };
}
