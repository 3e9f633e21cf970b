import type { DnsSnapshot, SnapshotKey } from '@sendwell/contracts';
import { isOutsideDomain } from '../dns/shared-cache.js';
import type { RecordType, Resolver } from '../dns/types.js';


const sorted = (values: string[]) => [...new Set(values)].sort();
const lowerNoDot = (name: string) => name.toLowerCase().replace(/\.$/, '');
const isSpf = (txt: string) => /^v=spf1(?:\s|$)/i.test(txt.trim());
const isDmarc = (txt: string) => /^v=DMARC1(?:\s*;|\s*$)/i.test(txt.trim());
/** The first record (in sorted order, so two snapshots compare) that starts with the version tag. */
const firstWith = (records: string[], version: RegExp) => sorted(records).find((r) => version.test(r.trim())) ?? null;

export async function takeDnsSnapshot(domain: string, resolver: Resolver, now: Date = new Date()): Promise<DnsSnapshot> {
  const failed = new Set<SnapshotKey>();
  const read = async <T extends RecordType>(name: string, type: T, keys: SnapshotKey[], shared = false) => {
    try {
      return await resolver.lookup(name, type, shared ? { shared } : undefined);
    } catch {
      for (const key of keys) failed.add(key);
      return [];
    }
  };

  // The mail checks ask the same questions: the scan's cache answers most of these.
  const [a, aaaa, mx, ns, txt, dmarcTxt, mtaStsTxt, tlsRptTxt, bimiTxt] = await Promise.all([
    read(domain, 'A', ['a']),
    read(domain, 'AAAA', ['aaaa']),
    read(domain, 'MX', ['mx']),
    read(domain, 'NS', ['ns']),
    read(domain, 'TXT', ['txt', 'spfRecord']),
    read(`_dmarc.${domain}`, 'TXT', ['dmarcRecord']),
    read(`_mta-sts.${domain}`, 'TXT', ['mtaStsRecord']),
    read(`_smtp._tls.${domain}`, 'TXT', ['tlsRptRecord']),
    read(`default._bimi.${domain}`, 'TXT', ['bimiRecord']),
  ]);

  // A null MX ("." , RFC 7505) says the domain receives no mail: it has no exchange to resolve.
  const exchanges = mx.filter((m) => lowerNoDot(m.exchange) !== '');
  const mxWithIps = await Promise.all(
    exchanges.map(async (m) => {
      const host = lowerNoDot(m.exchange);
      // Another organisation's mail host may come from the shared cache (as in the blacklist check).
      const shared = isOutsideDomain(host, domain);
      const [v4, v6] = await Promise.all([read(host, 'A', ['mx'], shared), read(host, 'AAAA', ['mx'], shared)]);
      return { exchange: host, priority: m.priority, ips: sorted([...v4, ...v6]) };
    }),
  );
  mxWithIps.sort((x, y) => x.priority - y.priority || x.exchange.localeCompare(y.exchange));

  const txtSorted = sorted(txt);
  return {
    takenAt: now.toISOString(),
    a: sorted(a),
    aaaa: sorted(aaaa),
    mx: mxWithIps,
    ns: sorted(ns.map(lowerNoDot)),
    txt: txtSorted,
    spfRecord: txtSorted.find(isSpf) ?? null,
    dmarcRecord: sorted(dmarcTxt).find(isDmarc) ?? null,
    mtaStsRecord: firstWith(mtaStsTxt, /^v=STSv1(?:\s*;|\s*$)/),
    tlsRptRecord: firstWith(tlsRptTxt, /^v=TLSRPTv1(?:\s*;|\s*$)/),
    bimiRecord: firstWith(bimiTxt, /^v=BIMI1(?:\s*;|\s*$)/),
    failed: [...failed].sort(),
  };
}
