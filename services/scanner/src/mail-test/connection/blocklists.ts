import { isIP } from 'node:net';
import type { MailTestAnalysis, MailTestFinding } from '@sendwell/contracts';
import { dnsblQueryName } from '../../checks/blacklist/dnsbl.js';
import type { DnsblQuery } from '../../checks/blacklist/plan.js';
import { askLists, type DnsblAnswer } from '../../checks/blacklist/query.js';
import { fillUrl, type DnsblZone } from '../../checks/blacklist/zones.js';
import type { MailTestAnalysisDeps } from '../types.js';
import { finding } from '../finding.js';

type BlocklistEntry = MailTestAnalysis['connection']['blocklists'][number];

/**
 * The client address on the scanner's IP lists (RFC 5782), through the blacklist check's own
 * questions and answer rules; lists the registry found degraded are left out. Lists are named by
 * their display name only: a keyed list's query zone holds its key.
 */
export async function readBlocklists(clientAddress: string, deps: Pick<MailTestAnalysisDeps, 'resolver' | 'blocklists'>): Promise<{ value: BlocklistEntry[]; findings: MailTestFinding[] }> {
  const { zones, health } = deps.blocklists;
  const v6 = isIP(clientAddress) === 6;
  const queries: DnsblQuery[] = [];
  for (const zone of zones) {
    if (zone.kind !== 'ip' || (v6 && !zone.ipv6) || health.degradedReason(zone.zone) !== null) continue;
    const name = dnsblQueryName(clientAddress, zone.queryZone);
    if (name !== null) queries.push({ zone, ip: clientAddress, name });
  }
  const answers = await askLists(deps.resolver, queries, health);
  const value: BlocklistEntry[] = [];
  const findings: MailTestFinding[] = [];
  answers.forEach((answer, index) => {
    const zone = (queries[index] as DnsblQuery).zone;
    value.push(entryOf(zone, answer));
    if (answer.outcome.status === 'listed') findings.push(listedFinding(zone, clientAddress, answer.outcome.codes, answer.reason));
  });
  return { value, findings };
}

function entryOf(zone: DnsblZone, { outcome }: DnsblAnswer): BlocklistEntry {
  switch (outcome.status) {
    case 'listed':
      return { list: zone.name, listed: true, answer: outcome.codes.map((code) => describeCode(zone, code)).join(', ') };
    case 'clean':
      return { list: zone.name, listed: false, answer: null };
    case 'unknown':
      // Not a listing, and not a clean answer either: say why there is no verdict.
      return { list: zone.name, listed: false, answer: `no usable answer (${outcome.reason})` };
  }
}

function describeCode(zone: DnsblZone, code: string): string {
  const meaning = zone.codeMeanings?.[code];
  return meaning ? `${code} (${meaning})` : code;
}

function listedFinding(zone: DnsblZone, ip: string, codes: string[], reason: string | null): MailTestFinding {
  const meanings = codes.map((code) => zone.codeMeanings?.[code]).filter((meaning): meaning is string => meaning !== undefined);
  const removal = fillUrl(zone.removalUrl, ip);
  return finding('connection', {
    code: 'IP_BLOCKLISTED',
    severity: 'error',
    title: `${ip} is listed on ${zone.name}`,
    explanation:
      `Receivers that use ${zone.name} reject or junk mail from a listed address. ${zone.description}` +
      (meanings.length > 0 ? ` Listed as: ${meanings.join('; ')}.` : '') +
      (reason !== null ? ` The list says: ${reason.slice(0, 300)}` : ''),
    fix: `Find and stop what got the address listed (a compromised account, a purchased list, missing bounce handling), then request removal${removal !== null ? ` at ${removal}` : ' from the list operator'}.`,
    reference: 'RFC 5782 §2.1',
    points: 1,
  });
}
