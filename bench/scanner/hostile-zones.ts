/**
 * The hostile world of `hostile.bench.ts`: zones a customer could publish to make scanning them
 * expensive, beside an ordinary signed domain. Every zone comes in `copies` of its own (its own
 * random keys and signatures), so no scan is answered from the process's memo of signature checks,
 * as an attacker who re-signs between scans would see to.
 *
 * - `normalN.test`: a signed mail domain (ECDSA), SPF, DMARC, MTA-STS and TLS-RPT records;
 * - `keytrapN.test`: KeyTrap as the paper builds it (CVE-2023-50387): 60 keys sharing the ZSK's key
 *   tag, each RSA-3072 with a 3071-bit exponent (~8 ms a verification), and 60 signatures by that tag
 *   over every RRset the scan validates, ahead of the real one;
 * - `keycostN.test`: the worst the bounds allow: 20 colliding RSA-4096 keys with 32-bit exponents (not
 *   refused), 30 signatures by their tag over every RRset;
 * - `spacesN.test`: unsigned, SPF, DMARC, MTA-STS and TLS-RPT records padded with 30,000 spaces and
 *   tabs where the review found super-linear expressions.
 */
import {
  DNSSEC_ALGORITHMS,
  dsPresentation,
  generateZoneKey,
  keyTrapKey,
  keyTrapSignatures,
  signFixtureZones,
  ZONE_KEY_FLAGS,
  type DnsFixtureRecords,
  type FixtureZone,
  type ZoneSigningKey,
} from '@sendwell/testing';

export const HOSTILE_KINDS = ['normal', 'keytrap', 'keycost', 'spaces'] as const;
export type HostileKind = (typeof HOSTILE_KINDS)[number];

export const PADDING = 30_000;

function mailZone(name: string): Record<string, DnsFixtureRecords> {
  return {
    [name]: {
      SOA: { mname: `ns.${name}`, rname: `hostmaster.${name}`, serial: 1 },
      NS: [`ns.${name}`],
      MX: [{ priority: 10, exchange: `mx.${name}` }],
      TXT: ['v=spf1 ip4:127.0.0.1 -all'],
    },
    [`_dmarc.${name}`]: { TXT: [`v=DMARC1; p=reject; rua=mailto:dmarc@${name}`] },
    [`_mta-sts.${name}`]: { TXT: ['v=STSv1; id=20261126'] },
    [`_smtp._tls.${name}`]: { TXT: [`v=TLSRPTv1; rua=mailto:tls@${name}`] },
    [`mx.${name}`]: { A: ['127.0.0.1'] },
  };
}

/** The RRsets the DNSSEC check validates in the domain's zone, each buried under trap signatures. */
function trapRecords(name: string, zsk: ZoneSigningKey, trapKeys: ZoneSigningKey[], signatures: number, signatureBytes: number, ksk: ZoneSigningKey): Record<string, DnsFixtureRecords> {
  const zone = mailZone(name);
  const apex = zone[name] as DnsFixtureRecords;
  const dmarc = zone[`_dmarc.${name}`] as DnsFixtureRecords;
  const traps = (owner: string, type: 'SOA' | 'MX' | 'TXT', records: DnsFixtureRecords) => keyTrapSignatures(owner, type, records, zsk, signatures, signatureBytes);
  return {
    ...zone,
    [name]: {
      ...apex,
      DNSKEY: [ksk, ...trapKeys, zsk].map((key) => key.dnskey),
      RRSIG: [...traps(name, 'SOA', apex), ...traps(name, 'MX', apex), ...traps(name, 'TXT', apex)],
    },
    [`_dmarc.${name}`]: { ...dmarc, RRSIG: traps(`_dmarc.${name}`, 'TXT', dmarc) },
  };
}

function spacedZone(name: string): Record<string, DnsFixtureRecords> {
  const pad = (unit: string) => unit.repeat(PADDING / unit.length);
  return {
    ...mailZone(name),
    [name]: { ...mailZone(name)[name], TXT: [`v=spf1 ip4:127.0.0.1${pad(' ')}-all`] },
    [`_dmarc.${name}`]: { TXT: [`v=DMARC1; p=none;${pad(' \t')}rua=mailto:dmarc@${name}`] },
    [`_mta-sts.${name}`]: { TXT: [`v=STSv1; id=1${pad(' ')}`] },
    [`_smtp._tls.${name}`]: { TXT: [`v=TLSRPTv1; rua=mailto:tls@${name}${pad(' ')}`] },
  };
}

export interface HostileWorld {
  records: Record<string, DnsFixtureRecords>;
  /** The test root's DS, the scans' trust anchor. */
  trustAnchor: string;
  domains: Record<HostileKind, string[]>;
}

export function buildHostileWorld(copies: number): HostileWorld {
  const root = generateZoneKey('.');
  const tld = generateZoneKey('test');
  const records: Record<string, DnsFixtureRecords> = {
    '.': { SOA: { mname: 'a.root.test', rname: 'nstld.root.test', serial: 1 }, NS: ['a.root.test'] },
    test: { SOA: { mname: 'ns.test', rname: 'hostmaster.test', serial: 1 }, NS: ['ns.test'] },
  };
  const zones: FixtureZone[] = [
    { name: '.', keys: [root] },
    { name: 'test', keys: [tld] },
  ];
  const domains: Record<HostileKind, string[]> = { normal: [], keytrap: [], keycost: [], spaces: [] };
  for (let i = 0; i < copies; i++) {
    const normal = `normal${i}.test`;
    const normalKeys = [generateZoneKey(normal), generateZoneKey(normal, { flags: ZONE_KEY_FLAGS })];
    Object.assign(records, mailZone(normal));
    zones.push({ name: normal, keys: normalKeys });
    domains.normal.push(normal);

    const trap = `keytrap${i}.test`;
    const trapKsk = generateZoneKey(trap);
    const trapZsk = generateZoneKey(trap, { algorithm: DNSSEC_ALGORITHMS.RSASHA256, flags: ZONE_KEY_FLAGS });
    const trapKeys = Array.from({ length: 60 }, () => keyTrapKey(trap, { keyTag: trapZsk.keyTag }));
    Object.assign(records, trapRecords(trap, trapZsk, trapKeys, 60, 384, trapKsk));
    zones.push({ name: trap, keys: [trapKsk, trapZsk] });
    domains.keytrap.push(trap);

    const cost = `keycost${i}.test`;
    const costKsk = generateZoneKey(cost);
    const costZsk = generateZoneKey(cost, { algorithm: DNSSEC_ALGORITHMS.RSASHA256, flags: ZONE_KEY_FLAGS });
    const costKeys = Array.from({ length: 20 }, () => keyTrapKey(cost, { keyTag: costZsk.keyTag, modulusBits: 4096, exponentBits: 32 }));
    Object.assign(records, trapRecords(cost, costZsk, costKeys, 30, 512, costKsk));
    zones.push({ name: cost, keys: [costKsk, costZsk] });
    domains.keycost.push(cost);

    const spaces = `spaces${i}.test`;
    Object.assign(records, spacedZone(spaces));
    zones.push({ name: spaces });
    domains.spaces.push(spaces);
  }
  return { records: signFixtureZones(records, zones), trustAnchor: dsPresentation(root), domains };
}
