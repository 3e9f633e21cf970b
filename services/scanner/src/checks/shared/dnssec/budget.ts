import { setImmediate as yieldToLoop } from 'node:timers/promises';

/**
 * What one scan may spend on DNSSEC cryptography. A zone is data its owner writes, and validation
 * cost is theirs to choose: KeyTrap (CVE-2023-50387) fills a DNSKEY RRset with keys sharing one key
 * tag and an RRset with signatures naming it, so a validator that tries every signature against every
 * key runs keys × signatures verifications; RSA keys with a huge public exponent make each one cost
 * ~8 ms instead of ~0.1 (measured here: RSA-3072 with a 3071-bit exponent). Validating resolvers
 * bounded both after the disclosure; so does this validator, and over a bound it answers
 * indeterminate (the check's `unknown`, DNSSEC_VALIDATION_LIMIT), as a resolver answers SERVFAIL:
 * never bogus, which would blame the domain for our refusal to spend more.
 *
 * With these numbers the worst a zone can cost a scan is 150 verifications of at most an RSA-4096
 * key with a 32-bit exponent (~0.2 ms) or an Ed448/ECDSA P-384 signature (~0.5 ms): under 100 ms of
 * CPU, handed back to the event loop every 8 verifications. `bench/scanner` measures it.
 *
 * NSEC3 (CVE-2023-50868, RFC 9276 §3.2) needs no bound here: the validator never hashes NSEC3 owner
 * names, because it does not validate denial of existence (validator.ts says what is not done).
 */
export const DNSSEC_LIMITS = {
  /** Keys of one tag and algorithm tried for one RRSIG. A tag collision between a zone's own keys is rare; four allows a rollover's worth of them. */
  keysPerSignature: 4,
  /** RRSIGs verified for one RRset. A zone signs an RRset once per key and algorithm: two during a rollover, four during an algorithm rollover. */
  signaturesPerRrset: 8,
  /** DS records (of supported algorithms and digests) matched against a zone's DNSKEYs; a parent publishes one or two per key. */
  dsRecordsPerZone: 8,
  /** Signature verifications in one scan, the memo's hits included. A full scan of a signed domain with DANE makes about 20. */
  verificationsPerScan: 150,
  /** Verifications between two turns of the event loop, so a costly zone does not hold up the scans beside it. */
  verificationsPerTurn: 8,
  /** RSA public exponents up to 32 bits: signers use 3 or 65537 (RFC 3110 allows up to 4096 bits, which is the attack). */
  rsaExponentBits: 32,
  /** RSA moduli up to 4096 bits, the bound of RFC 3110 §2 and RFC 5702 §2.1 (each verification costs the cube of it). */
  rsaModulusBits: 4096,
} as const;

/** The scan's count of verifications, shared by every RRset its validator checks. */
export class VerificationBudget {
  private used = 0;

  constructor(private readonly limit: number = DNSSEC_LIMITS.verificationsPerScan) {}

  get spent(): number {
    return this.used;
  }

  /** Takes one verification; false when the scan has none left. */
  take(): boolean {
    if (this.used >= this.limit) return false;
    this.used++;
    return true;
  }

  /** Gives the event loop a turn after every few verifications. */
  async pace(): Promise<void> {
    if (this.used > 0 && this.used % DNSSEC_LIMITS.verificationsPerTurn === 0) await yieldToLoop();
  }
}
