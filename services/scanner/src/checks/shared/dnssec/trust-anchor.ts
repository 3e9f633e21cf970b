/**
 * Trust anchors as DS records (RFC 4034 §5; the root's as IANA publishes it, RFC 7958): the chain of
 * trust starts at the DNSKEYs they match.
 */
export interface DsRecord {
  /** The zone, lower-case without the trailing dot; '' for the root. */
  zone: string;
  keyTag: number;
  algorithm: number;
  digestType: number;
  /** Lower-case hex. */
  digest: string;
}

/** The root zone's KSK-2017 (key tag 20326, RSA/SHA-256), as https://data.iana.org/root-anchors/root-anchors.xml lists it. */
export const ROOT_KSK_2017: DsRecord = {
  zone: '',
  keyTag: 20326,
  algorithm: 8,
  digestType: 2,
  digest: 'e06d44b80b8f1d39a95c0b0d7c65d08458e880409bbc683457104237c7f8ec8d',
};

/**
 * The root zone's KSK-2024 (key tag 38696), in the root zone's DNSKEY RRset since January 2025 and its
 * signing key since the rollover of 11 October 2026 (IANA's root-anchors.xml lists both). A validator
 * anchored on KSK-2017 alone fails on the root's DNSKEY RRset from that day.
 */
export const ROOT_KSK_2024: DsRecord = {
  zone: '',
  keyTag: 38696,
  algorithm: 8,
  digestType: 2,
  digest: '683d2d0acb8c9b712a1948b27f741219298d0a450d612c483af444a4c0fb2b16',
};

/** The default: both root keys IANA publishes as trust anchors. */
export const ROOT_TRUST_ANCHORS: readonly DsRecord[] = [ROOT_KSK_2017, ROOT_KSK_2024];

/** `. IN DS 20326 8 2 E06D…`, the form SCAN_DNSSEC_TRUST_ANCHOR takes. */
export function dsPresentation(ds: DsRecord): string {
  return `${ds.zone === '' ? '.' : `${ds.zone}.`} IN DS ${ds.keyTag} ${ds.algorithm} ${ds.digestType} ${ds.digest.toUpperCase()}`;
}

/**
 * One DS record in presentation format (RFC 4034 §5.3): `<owner> [<ttl>] [IN] DS <key tag> <algorithm>
 * <digest type> <digest hex, spaces allowed>`. Throws a RangeError naming what is wrong.
 */
export function parseDsRecord(text: string): DsRecord {
  const tokens = text.trim().split(/\s+/);
  const owner = tokens.shift();
  if (!owner) throw new RangeError('empty DS record');
  let token = tokens.shift();
  if (token !== undefined && /^\d+$/.test(token)) token = tokens.shift();
  if (token?.toUpperCase() === 'IN') token = tokens.shift();
  if (token?.toUpperCase() !== 'DS') throw new RangeError(`not a DS record: "${text.trim()}"`);
  const [keyTag, algorithm, digestType] = tokens.splice(0, 3).map((value) => (/^\d+$/.test(value) ? Number(value) : NaN));
  const digest = tokens.join('').toLowerCase();
  if (keyTag === undefined || !(keyTag <= 0xffff) || algorithm === undefined || !(algorithm <= 0xff) || digestType === undefined || !(digestType <= 0xff)) {
    throw new RangeError(`DS record needs a key tag, an algorithm and a digest type: "${text.trim()}"`);
  }
  if (!/^(?:[0-9a-f]{2})+$/.test(digest)) throw new RangeError(`DS record digest is not hex: "${text.trim()}"`);
  const zone = owner === '.' ? '' : owner.toLowerCase().replace(/\.$/, '');
  return { zone, keyTag, algorithm, digestType, digest };
}

/** Several DS records separated by newlines or semicolons (an empty text gives none). */
export function parseTrustAnchors(text: string): DsRecord[] {
  return text
    .split(/[;\n]/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map(parseDsRecord);
}
