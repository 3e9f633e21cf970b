import { isOutsideDomain } from '../../../dns/shared-cache.js';
import { DnsTimeoutError, type DnssecRecord, type DnssecResponse, type DnssecSignature, type RecordType, type Resolver } from '../../../dns/types.js';
import { displayName, isAtOrBelow, labelCount, nameWire, parentName, rrsigTimeMs, signedData } from './canonical.js';
import { DNSSEC_LIMITS, VerificationBudget } from './budget.js';
import { ALGORITHMS, algorithmSupported, DIGEST_TYPES, dsDigest, keyRefusal, keyTag, verifyWithKey } from './crypto.js';
import type { DsRecord } from './trust-anchor.js';

/**
 * A validating walk in the manner of RFC 4035 §5: from a trust anchor down to the zone holding a
 * name, one label at a time. At each label the DS RRset is asked (with DO and CD, so the recursive
 * server hands over signatures and bogus data alike):
 * - DS records, signed by the parent's keys: a secure delegation; the child's DNSKEY RRset must hold
 *   a key matching one of them (§5.2) and be signed by it;
 * - no DS, and the name owns an SOA: a zone cut without DS, an unsigned (insecure) delegation,
 *   accepted only when the parent's negative answer carries its SOA signed by the parent's keys;
 * - no DS and no SOA: the name is inside the parent's zone.
 * An RRset is then checked (§5.3) against the keys of the zone its RRSIG names as signer, once the walk
 * to that name has found it a secure zone apex; without an RRSIG, the walk to the owner decides
 * whether it lies below an unsigned cut (insecure) or the signature is missing (bogus). Data signed by
 * a zone above an unsigned cut it sits below is taken as signed: no resolver sends such data.
 *
 * Not done: authenticated denial of existence (NSEC, NSEC3: RFC 4035 §5.4, RFC 5155 §8). A signed
 * negative answer proves the answer came from the parent zone, not that the DS does not exist; a
 * missing record (no MX, no DMARC) is not validated, and neither is a wildcard's non-existence proof.
 *
 * What a zone can make this cost is bounded (budget.ts, the KeyTrap class): keys tried per signature,
 * signatures per RRset, DS records per zone, verifications per scan, and the size of RSA keys. Past a
 * bound the RRset or zone is indeterminate with DNSSEC_VALIDATION_LIMIT, never bogus.
 */

/** RFC 4033 §5 (and RFC 4035 §4.3): secure, insecure, bogus; indeterminate when a lookup failed. */
export type SecurityState = 'secure' | 'insecure' | 'bogus' | 'indeterminate';

/** Why validation failed or was cut short, as finding codes (findings.ts words them). */
export type ProblemCode =
  | 'DNSSEC_SIGNATURE_INVALID'
  | 'DNSSEC_SIGNATURE_EXPIRED'
  | 'DNSSEC_SIGNATURE_NOT_YET_VALID'
  | 'DNSSEC_RRSIG_MISSING'
  | 'DNSSEC_KEY_MISSING'
  | 'DNSSEC_SIGNER_MISMATCH'
  | 'DNSSEC_DS_MISMATCH'
  | 'DNSSEC_TRUST_ANCHOR_FAILED'
  | 'DNSSEC_DNSKEY_MISSING'
  | 'DNSSEC_DENIAL_UNSIGNED'
  | 'DNSSEC_ALGORITHM_UNSUPPORTED'
  | 'DNSSEC_DIGEST_UNSUPPORTED'
  | 'DNSSEC_LOOKUP_FAILED'
  | 'DNSSEC_NO_TRUST_ANCHOR'
  | 'DNSSEC_UNSIGNED'
  | 'DNSSEC_VALIDATION_LIMIT';

export interface Problem {
  code: ProblemCode;
  /** The zone or RRset it concerns, e.g. "example.com" or "example.com MX". */
  subject: string;
  /** What was found, one sentence fragment: "the RRSIG by key 12345 expired on 2026-01-01". */
  detail: string;
}

/** A key of a zone's validated DNSKEY RRset. */
export interface ZoneKey {
  keyTag: number;
  algorithm: number;
  flags: number;
  rdata: Buffer;
}

/** The zone a name falls in, and its state. `zone` is the insecure or bogus zone itself for those. */
export type ZoneState =
  | { state: 'secure'; zone: string; keys: ZoneKey[] }
  | { state: 'insecure'; zone: string; problem: Problem }
  | { state: 'bogus'; zone: string; problem: Problem }
  | { state: 'indeterminate'; zone: string; problem: Problem };

/** One zone of a chain, for the details. */
export interface ChainLink {
  zone: string;
  state: SecurityState;
  dsDigestTypes: number[];
  keyAlgorithms: number[];
  /** Key tags the DS records (or the anchor) authenticate, found in the DNSKEY RRset. */
  keyTags: number[];
  /** RRSIG expirations seen for the DS and DNSKEY RRsets (ms), the earliest first. */
  expiresAt: number | null;
  error: string | null;
}

/** A weakness of a secure zone: DS records only with SHA-1 digests, or keys of a deprecated algorithm. */
export interface ChainNote {
  kind: 'sha1-ds' | 'deprecated-algorithm';
  zone: string;
  algorithm: number | null;
}

/** A validated signature: what the findings need about it. */
export interface GoodSignature {
  algorithm: number;
  keyTag: number;
  inceptionMs: number;
  expirationMs: number;
  /** "example.com MX", for the expiring-soon finding. */
  subject: string;
}

/** The verdict on one RRset that was read. */
export interface RrsetOutcome {
  name: string;
  type: string;
  state: SecurityState;
  /** The zone it was validated in (or found insecure or bogus in). */
  zone: string | null;
  signature: GoodSignature | null;
  problem: Problem | null;
}

type RrsetCheck = { ok: true; signature: GoodSignature } | { ok: false; problem: Problem };

/** What the step at one label found. */
type Step = { kind: 'inside' } | { kind: 'nxdomain' } | { kind: 'zone'; zone: ZoneState };

/** Thrown by ask(): the question got no usable answer; ends the walk as indeterminate. */
class LookupFailed extends Error {
  override name = 'LookupFailed';
}

const ZONE_FLAG = 0x0100;

export interface ValidatorOptions {
  resolver: Resolver;
  /** The scanned domain: questions about other names may come from the shared cache. */
  domain: string;
  trustAnchors: readonly DsRecord[];
  now: number;
  /** The scan's verification budget; a validator of its own by default. */
  budget?: VerificationBudget;
}

export class DnssecValidator {
  /** Every zone examined, in the order the walks reached them (parents first). */
  readonly chain = new Map<string, ChainLink>();
  /** Good signatures seen on the way (DS and DNSKEY RRsets), for the expiring-soon finding. */
  readonly signatures: GoodSignature[] = [];
  /** Names the walk found not to exist (NXDOMAIN to their DS question). */
  readonly missingNames = new Set<string>();
  /** What the findings say about a secure chain beyond its state. */
  readonly notes: ChainNote[] = [];
  readonly trustAnchors: readonly DsRecord[];
  /** The time signatures are judged at (ms). */
  readonly now: number;
  private readonly steps = new Map<string, Promise<Step>>();
  private readonly anchors = new Map<string, Promise<ZoneState>>();
  private readonly answers = new Map<string, Promise<RrsetOutcome[] | Problem>>();
  private readonly resolver: Resolver;
  private readonly domain: string;
  readonly budget: VerificationBudget;

  constructor(options: ValidatorOptions) {
    this.budget = options.budget ?? new VerificationBudget();
    this.resolver = options.resolver;
    this.domain = options.domain;
    this.trustAnchors = options.trustAnchors;
    this.now = options.now;
  }

  /** The zone holding `name` and whether it is secure: the walk from the closest trust anchor above it. */
  async zoneFor(name: string): Promise<ZoneState> {
    const anchorZone = this.anchorFor(name);
    if (anchorZone === null) {
      return {
        state: 'insecure',
        zone: '',
        problem: { code: 'DNSSEC_NO_TRUST_ANCHOR', subject: displayName(name), detail: 'no configured trust anchor is at or above the name' },
      };
    }
    let current = await this.anchorState(anchorZone);
    const labels = name === '' ? [] : name.split('.');
    for (let count = labelCount(anchorZone) + 1; count <= labels.length; count++) {
      if (current.state !== 'secure') return current;
      const child = labels.slice(labels.length - count).join('.');
      const step = await this.step(current, child);
      if (step.kind === 'nxdomain') return current;
      if (step.kind === 'zone') current = step.zone;
    }
    return current;
  }

  /**
   * Validates the answer to (name, type): every RRset in it (the CNAMEs of a chain, then the records
   * asked), each in the zone that holds it. [] when there are no records (not validated: no NSEC).
   * Once per name, type and validator: the DNSSEC and DANE checks of a scan share one validator
   * (scan-validator.ts), and both ask for the MX hosts' TLSA records.
   */
  validateAnswer(name: string, type: RecordType): Promise<RrsetOutcome[] | Problem> {
    const key = `${name} ${type}`;
    let answer = this.answers.get(key);
    if (!answer) {
      answer = this.validateOnce(name, type);
      this.answers.set(key, answer);
    }
    return answer;
  }

  private async validateOnce(name: string, type: RecordType): Promise<RrsetOutcome[] | Problem> {
    let response: DnssecResponse;
    try {
      response = await this.ask(name, type);
    } catch (error) {
      if (error instanceof LookupFailed) return { code: 'DNSSEC_LOOKUP_FAILED', subject: `${displayName(name)} ${type}`, detail: error.message };
      throw error;
    }
    if (response.rcode !== 'NOERROR' && response.rcode !== 'NXDOMAIN') {
      return { code: 'DNSSEC_LOOKUP_FAILED', subject: `${displayName(name)} ${type}`, detail: `the ${type} query for ${displayName(name)} was answered ${response.rcode}` };
    }
    const rrsets = new Map<string, DnssecRecord[]>();
    for (const record of response.answers) {
      const key = `${record.name} ${record.type}`;
      const list = rrsets.get(key);
      if (list) list.push(record);
      else rrsets.set(key, [record]);
    }
    return Promise.all([...rrsets.values()].map((rrset) => this.validateRrset(rrset, response.rrsigs)));
  }

  /** One RRset: in the zone of its signer when it has RRSIGs, else in the zone the walk finds for its owner. */
  async validateRrset(rrset: readonly DnssecRecord[], rrsigs: readonly DnssecSignature[]): Promise<RrsetOutcome> {
    const first = rrset[0] as DnssecRecord;
    const subject = `${displayName(first.name)} ${first.type}`;
    const base = { name: displayName(first.name), type: first.type };
    const covering = rrsigs.filter((sig) => sig.name === first.name && sig.typeCovered === first.type);
    // The signer says which zone to validate in; only a name at or above the owner can be (RFC 4035 §5.3.1).
    const signer = covering
      .map((sig) => sig.signerName)
      .filter((name) => isAtOrBelow(first.name, name))
      .sort((a, b) => labelCount(b) - labelCount(a))[0];
    let zone = await this.zoneFor(signer ?? first.name);
    // A signer that is no zone apex: judged in the owner's zone, where the signer mismatch shows.
    if (zone.state === 'secure' && signer !== undefined && zone.zone !== signer) zone = await this.zoneFor(first.name);
    // Below a cut without DS the data is insecure whatever it carries; without usable RRSIGs the walk to the owner decides.
    if (zone.state !== 'secure') return { ...base, state: zone.state, zone: displayName(zone.zone), signature: null, problem: zone.problem };
    const check = await this.checkRrset(subject, rrset, covering, zone);
    return check.ok
      ? { ...base, state: 'secure', zone: displayName(zone.zone), signature: check.signature, problem: null }
      : { ...base, state: failedState(check.problem), zone: displayName(zone.zone), signature: null, problem: check.problem };
  }

  /** The deepest anchor zone at or above `name`; null when none is. */
  private anchorFor(name: string): string | null {
    let best: string | null = null;
    for (const anchor of this.trustAnchors) {
      if (isAtOrBelow(name, anchor.zone) && (best === null || labelCount(anchor.zone) > labelCount(best))) best = anchor.zone;
    }
    return best;
  }

  /**
   * The anchor's zone. Its failure is the scanner's (a stale trust anchor, a resolver that strips
   * signatures), not the domain's: indeterminate, with DNSSEC_TRUST_ANCHOR_FAILED.
   */
  private anchorState(zone: string): Promise<ZoneState> {
    let state = this.anchors.get(zone);
    if (!state) {
      const anchors = this.trustAnchors.filter((anchor) => anchor.zone === zone);
      state = this.guard(zone, () => this.zoneKeys(zone, anchors, true)).then((result): ZoneState => {
        if (result.state !== 'bogus' && result.state !== 'insecure') return result;
        this.link(zone).state = 'indeterminate';
        return { state: 'indeterminate', zone, problem: { code: 'DNSSEC_TRUST_ANCHOR_FAILED', subject: displayName(zone), detail: result.problem.detail } };
      });
      this.anchors.set(zone, state);
    }
    return state;
  }

  /** The step at `child` below the secure zone `parent`, once per name and validator. */
  private step(parent: Extract<ZoneState, { state: 'secure' }>, child: string): Promise<Step> {
    let step = this.steps.get(child);
    if (!step) {
      step = this.takeStep(parent, child).catch((error: unknown) => {
        if (!(error instanceof LookupFailed)) throw error;
        const zone: ZoneState = { state: 'indeterminate', zone: child, problem: { code: 'DNSSEC_LOOKUP_FAILED', subject: displayName(child), detail: error.message } };
        this.link(child).state = 'indeterminate';
        this.link(child).error = error.message;
        return { kind: 'zone', zone };
      });
      this.steps.set(child, step);
    }
    return step;
  }

  private async takeStep(parent: Extract<ZoneState, { state: 'secure' }>, child: string): Promise<Step> {
    const ds = await this.ask(child, 'DS');
    if (ds.rcode !== 'NOERROR' && ds.rcode !== 'NXDOMAIN') throw new LookupFailed(`the DS query for ${displayName(child)} was answered ${ds.rcode}`);
    const dsRecords = ds.answers.filter((record) => record.name === child && record.type === 'DS');
    if (dsRecords.length > 0) {
      const link = this.link(child);
      const check = await this.checkRrset(`${displayName(child)} DS`, dsRecords, ds.rrsigs, parent);
      if (!check.ok) return { kind: 'zone', zone: this.fail(link, child, check.problem) };
      this.noteSignature(link, check.signature);
      const records = dsRecords.map((record) => parseDs(child, record.rdata)).filter((record): record is DsRecord => record !== null);
      return { kind: 'zone', zone: await this.zoneKeys(child, records, false) };
    }
    if (ds.rcode === 'NXDOMAIN') {
      this.missingNames.add(child);
      return { kind: 'nxdomain' };
    }
    // No DS: an unsigned delegation if the name is a zone apex, else a name inside the parent zone.
    const soa = await this.ask(child, 'SOA');
    if (soa.rcode !== 'NOERROR' && soa.rcode !== 'NXDOMAIN') throw new LookupFailed(`the SOA query for ${displayName(child)} was answered ${soa.rcode}`);
    if (!soa.answers.some((record) => record.name === child && record.type === 'SOA')) return { kind: 'inside' };
    const link = this.link(child);
    // The parent vouches for the absence: its negative answer carries its SOA, signed by its keys.
    const parentSoa = ds.authorities.filter((record) => record.type === 'SOA' && record.name === parent.zone);
    if (parentSoa.length === 0) {
      return {
        kind: 'zone',
        zone: this.fail(link, child, {
          code: 'DNSSEC_DENIAL_UNSIGNED',
          subject: displayName(child),
          detail: `the answer of ${displayName(parent.zone)} that ${displayName(child)} has no DS record carries no signed SOA of ${displayName(parent.zone)}`,
        }),
      };
    }
    const check = await this.checkRrset(`${displayName(parent.zone)} SOA`, parentSoa, ds.rrsigs, parent);
    if (!check.ok && failedState(check.problem) === 'indeterminate') return { kind: 'zone', zone: this.fail(link, child, check.problem) };
    if (!check.ok) {
      return {
        kind: 'zone',
        zone: this.fail(link, child, {
          code: 'DNSSEC_DENIAL_UNSIGNED',
          subject: displayName(child),
          detail: `the answer of ${displayName(parent.zone)} that ${displayName(child)} has no DS record does not validate: ${check.problem.detail}`,
        }),
      };
    }
    link.state = 'insecure';
    return {
      kind: 'zone',
      zone: { state: 'insecure', zone: child, problem: { code: 'DNSSEC_UNSIGNED', subject: displayName(child), detail: `${displayName(parent.zone)} publishes no DS record for ${displayName(child)}` } },
    };
  }

  /**
   * The zone's DNSKEY RRset authenticated by DS records (the parent's, or the trust anchors): a key
   * matching a DS by tag, algorithm and digest (RFC 4035 §5.2), with the Zone Key flag, signing the
   * RRset. Only DS records of algorithms and digest types validated here count; none left: insecure.
   */
  private async zoneKeys(zone: string, dsRecords: readonly DsRecord[], anchor: boolean): Promise<ZoneState> {
    const link = this.link(zone);
    link.dsDigestTypes = [...new Set(dsRecords.map((ds) => ds.digestType))].sort((a, b) => a - b);
    const usable = dsRecords.filter((ds) => algorithmSupported(ds.algorithm) && DIGEST_TYPES[ds.digestType] !== undefined);
    if (usable.length === 0) {
      const algorithms = [...new Set(dsRecords.map((ds) => ds.algorithm))];
      const code = dsRecords.some((ds) => algorithmSupported(ds.algorithm)) ? 'DNSSEC_DIGEST_UNSUPPORTED' : 'DNSSEC_ALGORITHM_UNSUPPORTED';
      const problem: Problem = {
        code,
        subject: displayName(zone),
        detail:
          code === 'DNSSEC_ALGORITHM_UNSUPPORTED'
            ? `the DS records of ${displayName(zone)} name only algorithm${algorithms.length === 1 ? '' : 's'} ${algorithms.join(', ')}`
            : `the DS records of ${displayName(zone)} use only digest type${link.dsDigestTypes.length === 1 ? '' : 's'} ${link.dsDigestTypes.join(', ')}`,
      };
      link.state = 'insecure';
      link.error = problem.detail;
      return { state: 'insecure', zone, problem };
    }
    // RFC 4509 §3: a SHA-1 DS is ignored when one with a stronger digest is there.
    const strong = usable.filter((ds) => ds.digestType !== 1);
    const chosen = (strong.length > 0 ? strong : usable).slice(0, DNSSEC_LIMITS.dsRecordsPerZone);
    const sha1Only = strong.length === 0 && !anchor;

    const response = await this.ask(zone, 'DNSKEY');
    if (response.rcode !== 'NOERROR' && response.rcode !== 'NXDOMAIN') throw new LookupFailed(`the DNSKEY query for ${displayName(zone)} was answered ${response.rcode}`);
    const records = response.answers.filter((record) => record.name === zone && record.type === 'DNSKEY');
    const keys = records.map((record) => parseDnskey(record.rdata)).filter((key): key is ZoneKey => key !== null);
    link.keyAlgorithms = [...new Set(keys.map((key) => key.algorithm))].sort((a, b) => a - b);
    if (keys.length === 0) {
      return this.fail(link, zone, {
        code: 'DNSSEC_DNSKEY_MISSING',
        subject: displayName(zone),
        detail: `${anchor ? 'the trust anchor names' : `${displayName(parentName(zone) ?? '')} publishes DS records for`} ${displayName(zone)}, which answers no DNSKEY records`,
      });
    }
    const owner = nameWire(zone);
    // Digests only for the first few keys of each DS's tag: a zone can publish any number of keys with one tag.
    const matched = chosen.flatMap((ds) =>
      keys
        .filter((key) => (key.flags & ZONE_FLAG) !== 0 && key.keyTag === ds.keyTag && key.algorithm === ds.algorithm)
        .slice(0, DNSSEC_LIMITS.keysPerSignature)
        .filter((key) => dsDigest(owner, key.rdata, ds.digestType)?.toString('hex') === ds.digest),
    ).filter((key, index, all) => all.indexOf(key) === index);
    if (matched.length === 0) {
      const tags = [...new Set(chosen.map((ds) => ds.keyTag))].join(', ');
      return this.fail(link, zone, {
        code: 'DNSSEC_DS_MISMATCH',
        subject: displayName(zone),
        detail: `no DNSKEY of ${displayName(zone)} matches the ${anchor ? 'trust anchor' : 'DS record'}${chosen.length === 1 ? '' : 's'} (key tag ${tags})`,
      });
    }
    link.keyTags = [...new Set(matched.map((key) => key.keyTag))].sort((a, b) => a - b);
    const check = await this.checkRrset(`${displayName(zone)} DNSKEY`, records, response.rrsigs, { state: 'secure', zone, keys: matched });
    if (!check.ok && anchor && response.rrsigs.length === 0) {
      throw new LookupFailed(`the DNS resolver sent the DNSKEY records of ${displayName(zone)} without signatures: it does not pass DNSSEC data on (DO bit, RFC 3225)`);
    }
    if (!check.ok) {
      const problem = check.problem.code === 'DNSSEC_KEY_MISSING' || check.problem.code === 'DNSSEC_RRSIG_MISSING'
        ? { ...check.problem, detail: `the DNSKEY RRset of ${displayName(zone)} is not signed by the key${matched.length === 1 ? '' : 's'} the ${anchor ? 'trust anchor' : 'DS'} names (key tag ${link.keyTags.join(', ')})` }
        : check.problem;
      return this.fail(link, zone, problem);
    }
    this.noteSignature(link, check.signature);
    link.state = 'secure';
    if (sha1Only) this.notes.push({ kind: 'sha1-ds', zone: displayName(zone), algorithm: null });
    const deprecated = matched.find((key) => ALGORITHMS[key.algorithm]?.deprecated === true);
    if (deprecated) this.notes.push({ kind: 'deprecated-algorithm', zone: displayName(zone), algorithm: deprecated.algorithm });
    return { state: 'secure', zone, keys: keys.filter((key) => (key.flags & ZONE_FLAG) !== 0) };
  }

  /**
   * An RRset against the keys of a secure zone (RFC 4035 §5.3): an RRSIG whose signer is the zone, whose
   * key tag and algorithm name one of its keys, which verifies, and whose validity period holds now.
   * One good RRSIG suffices (RFC 6840 §5.4); otherwise the most telling failure is reported. The checks
   * that cost nothing come first; verifications are bounded (budget.ts), and a bound reached before a
   * signature verified is DNSSEC_VALIDATION_LIMIT.
   */
  private async checkRrset(subject: string, rrset: readonly DnssecRecord[], rrsigs: readonly DnssecSignature[], zone: Extract<ZoneState, { state: 'secure' }>): Promise<RrsetCheck> {
    const first = rrset[0];
    if (!first) return { ok: false, problem: { code: 'DNSSEC_RRSIG_MISSING', subject, detail: 'no records' } };
    const covering = rrsigs.filter((sig) => sig.name === first.name && sig.typeCovered === first.type);
    if (covering.length === 0) {
      return { ok: false, problem: { code: 'DNSSEC_RRSIG_MISSING', subject, detail: `${subject} has no RRSIG, though ${displayName(zone.zone)} is signed` } };
    }
    const failures: Problem[] = [];
    const limit = (detail: string): Problem => ({ code: 'DNSSEC_VALIDATION_LIMIT', subject, detail });
    let verifiedSignatures = 0;
    for (const sig of covering) {
      if (sig.signerName !== zone.zone) {
        failures.push({ code: 'DNSSEC_SIGNER_MISMATCH', subject, detail: `the RRSIG over ${subject} names ${displayName(sig.signerName)} as signer, not the zone ${displayName(zone.zone)}` });
        continue;
      }
      if (sig.labels > labelCount(first.name)) {
        failures.push({ code: 'DNSSEC_SIGNATURE_INVALID', subject, detail: `the RRSIG over ${subject} counts ${sig.labels} labels, more than the name has` });
        continue;
      }
      if (!algorithmSupported(sig.algorithm)) {
        failures.push({ code: 'DNSSEC_ALGORITHM_UNSUPPORTED', subject, detail: `the RRSIG over ${subject} uses algorithm ${sig.algorithm}, which is not validated here` });
        continue;
      }
      const keys = zone.keys.filter((key) => key.keyTag === sig.keyTag && key.algorithm === sig.algorithm);
      if (keys.length === 0) {
        failures.push({ code: 'DNSSEC_KEY_MISSING', subject, detail: `the RRSIG over ${subject} is by key tag ${sig.keyTag}, which is not among the validated DNSKEYs of ${displayName(zone.zone)}` });
        continue;
      }
      const refused = keys.map((key) => keyRefusal(sig.algorithm, key.rdata.subarray(4))).find((reason) => reason !== null);
      const usable = keys.filter((key) => keyRefusal(sig.algorithm, key.rdata.subarray(4)) === null);
      if (usable.length === 0) {
        failures.push(limit(`the RRSIG over ${subject} is by key tag ${sig.keyTag} of ${displayName(zone.zone)}, ${refused ?? 'a key not used'}`));
        continue;
      }
      if (verifiedSignatures === DNSSEC_LIMITS.signaturesPerRrset) {
        failures.push(limit(`${subject} carries more than ${DNSSEC_LIMITS.signaturesPerRrset} RRSIGs that could be checked; validation stopped there`));
        break;
      }
      verifiedSignatures++;
      const data = signedData(sig, rrset);
      let verified: boolean | 'unsupported' = false;
      let outOfBudget = false;
      for (const key of usable.slice(0, DNSSEC_LIMITS.keysPerSignature)) {
        if (!this.budget.take()) {
          outOfBudget = true;
          break;
        }
        const outcome = verifyWithKey(sig.algorithm, key.rdata.subarray(4), data, sig.signature);
        await this.budget.pace();
        // A malformed key is no verdict on the signature: another key with the same tag may verify it.
        if (outcome === null) continue;
        verified = outcome;
        if (verified === true) break;
      }
      if (outOfBudget && verified !== true) {
        failures.push(limit(`the scan reached its bound of ${DNSSEC_LIMITS.verificationsPerScan} DNSSEC signature verifications before ${subject}`));
        break;
      }
      if (verified === 'unsupported') {
        failures.push({ code: 'DNSSEC_ALGORITHM_UNSUPPORTED', subject, detail: `the RRSIG over ${subject} uses ${ALGORITHMS[sig.algorithm]?.label ?? sig.algorithm}, which this system's crypto library refuses` });
        continue;
      }
      if (!verified && usable.length > DNSSEC_LIMITS.keysPerSignature) {
        failures.push(limit(`${displayName(zone.zone)} publishes ${usable.length} keys with key tag ${sig.keyTag}; only ${DNSSEC_LIMITS.keysPerSignature} are tried for one signature`));
        continue;
      }
      if (!verified) {
        failures.push({ code: 'DNSSEC_SIGNATURE_INVALID', subject, detail: `the RRSIG over ${subject} by key tag ${sig.keyTag} does not verify` });
        continue;
      }
      const inceptionMs = rrsigTimeMs(sig.inception, this.now);
      const expirationMs = rrsigTimeMs(sig.expiration, this.now);
      if (this.now > expirationMs) {
        failures.push({ code: 'DNSSEC_SIGNATURE_EXPIRED', subject, detail: `the RRSIG over ${subject} by key tag ${sig.keyTag} expired on ${isoDate(expirationMs)}` });
        continue;
      }
      if (this.now < inceptionMs) {
        failures.push({ code: 'DNSSEC_SIGNATURE_NOT_YET_VALID', subject, detail: `the RRSIG over ${subject} by key tag ${sig.keyTag} is valid only from ${isoDate(inceptionMs)}` });
        continue;
      }
      return { ok: true, signature: { algorithm: sig.algorithm, keyTag: sig.keyTag, inceptionMs, expirationMs, subject } };
    }
    failures.sort((a, b) => FAILURE_RANK.indexOf(a.code) - FAILURE_RANK.indexOf(b.code));
    return { ok: false, problem: failures[0] as Problem };
  }

  private async ask(name: string, type: RecordType): Promise<DnssecResponse> {
    try {
      return await this.resolver.queryDnssec(name, type, { shared: name === '' || isOutsideDomain(name, this.domain) });
    } catch (error) {
      if (error instanceof DnsTimeoutError) throw new LookupFailed(`the ${type} query for ${displayName(name)} timed out`);
      throw error;
    }
  }

  private guard(zone: string, run: () => Promise<ZoneState>): Promise<ZoneState> {
    return run().catch((error: unknown) => {
      if (!(error instanceof LookupFailed)) throw error;
      const link = this.link(zone);
      link.state = 'indeterminate';
      link.error = error.message;
      return { state: 'indeterminate', zone, problem: { code: 'DNSSEC_LOOKUP_FAILED', subject: displayName(zone), detail: error.message } };
    });
  }

  private link(zone: string): ChainLink {
    let link = this.chain.get(zone);
    if (!link) {
      link = { zone, state: 'indeterminate', dsDigestTypes: [], keyAlgorithms: [], keyTags: [], expiresAt: null, error: null };
      this.chain.set(zone, link);
    }
    return link;
  }

  /** The zone failed: bogus, or indeterminate when validation stopped at a bound (failedState). */
  private fail(link: ChainLink, zone: string, problem: Problem): ZoneState {
    const state = failedState(problem);
    link.state = state;
    link.error = problem.detail;
    return { state, zone, problem };
  }

  private noteSignature(link: ChainLink, signature: GoodSignature): void {
    this.signatures.push(signature);
    link.expiresAt = link.expiresAt === null ? signature.expirationMs : Math.min(link.expiresAt, signature.expirationMs);
  }
}

/** A failure is bogus unless validation stopped at a bound: then nothing is known (as a resolver's SERVFAIL). */
function failedState(problem: Problem): 'bogus' | 'indeterminate' {
  return problem.code === 'DNSSEC_VALIDATION_LIMIT' ? 'indeterminate' : 'bogus';
}

/** Which failure to report when every RRSIG failed: a bound reached first (what was not tried may have verified), then the one nearest to working. */
const FAILURE_RANK: ProblemCode[] = [
  'DNSSEC_VALIDATION_LIMIT',
  'DNSSEC_SIGNATURE_EXPIRED',
  'DNSSEC_SIGNATURE_NOT_YET_VALID',
  'DNSSEC_SIGNATURE_INVALID',
  'DNSSEC_KEY_MISSING',
  'DNSSEC_SIGNER_MISMATCH',
  'DNSSEC_ALGORITHM_UNSUPPORTED',
  'DNSSEC_RRSIG_MISSING',
];

function isoDate(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A DNSKEY rdata (RFC 4034 §2.1): flags, protocol 3, algorithm, key; null when too short or not protocol 3. */
export function parseDnskey(rdata: Buffer): ZoneKey | null {
  if (rdata.length < 5 || rdata[2] !== 3) return null;
  return { flags: rdata.readUInt16BE(0), algorithm: rdata[3] as number, keyTag: keyTag(rdata), rdata };
}

/** A DS rdata (RFC 4034 §5.1). */
export function parseDs(zone: string, rdata: Buffer): DsRecord | null {
  if (rdata.length < 5) return null;
  return { zone, keyTag: rdata.readUInt16BE(0), algorithm: rdata[2] as number, digestType: rdata[3] as number, digest: rdata.subarray(4).toString('hex') };
}
