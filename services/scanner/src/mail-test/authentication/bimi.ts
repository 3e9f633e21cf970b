import type { MailTestAnalysis, MailTestFinding } from '@sendwell/contracts';
import { discoverRecords } from '../../checks/bimi/discovery.js';
import { parseBimiRecord } from '../../checks/bimi/record.js';
import { organizationalDomain } from '../../checks/shared/dmarc/org-domain.js';
import type { Resolver } from '../../dns/types.js';
import type { DmarcReading } from './dmarc.js';
import { finding } from '../finding.js';

type Bimi = MailTestAnalysis['authentication']['bimi'];

const DRAFT = 'draft-brand-indicators-for-message-identification';

/** Receivers show a logo only for mail that passed DMARC under an enforcing policy (BIMI draft §7.1). */
function dmarcBlocks({ value, parsed }: DmarcReading): string | null {
  if (value.result !== 'pass') return 'the message did not pass DMARC';
  if (value.policy !== 'quarantine' && value.policy !== 'reject') return `the DMARC policy is p=${value.policy ?? 'none'}; BIMI needs p=quarantine or p=reject`;
  if (value.policy === 'quarantine' && (parsed?.pct ?? 100) < 100) return `the DMARC policy quarantines only ${parsed?.pct}% of failing mail (pct); BIMI needs 100%`;
  return null;
}

/** The BIMI record of the From domain (the scanner's discovery and parser) and whether this message qualifies for it. */
export async function readBimi(resolver: Resolver, dmarc: DmarcReading): Promise<Bimi> {
  const domain = dmarc.value.domain;
  if (domain === null) return { result: 'skipped', location: null, authority: null, reason: 'the message has no single From domain' };
  const found = await discoverRecords(resolver, domain, organizationalDomain(domain));
  if (found.outcome === 'failed') return { result: 'temperror', location: null, authority: null, reason: `the lookup of ${found.name} ${found.reason}` };
  if (found.records.length === 0) return { result: 'none', location: null, authority: null, reason: `there is no BIMI record at ${found.name}` };
  if (found.records.length > 1) return { result: 'fail', location: null, authority: null, reason: `${found.name} has ${found.records.length} BIMI records; receivers use none` };
  const record = parseBimiRecord(found.records[0] as string);
  const location = record.l ?? null;
  const authority = record.a ?? null;
  if (record.declined) return { result: 'declined', location: null, authority: null, reason: `${found.name} declines BIMI (empty l= and a=)` };
  const blocked = dmarcBlocks(dmarc);
  if (blocked !== null) return { result: 'skipped', location, authority, reason: blocked };
  if (record.logoUrl === null) {
    const fault = record.findings.find((finding) => finding.severity === 'error');
    return { result: 'fail', location, authority, reason: fault?.message ?? 'the record has no usable logo location (l=)' };
  }
  return { result: 'pass', location, authority, reason: null };
}

export function bimiFindings(value: Bimi): MailTestFinding[] {
  if (value.result === 'pass') return [];
  return [
    finding('authentication', {
      code: 'BIMI_NOT_ELIGIBLE',
      severity: 'info',
      title: 'Receivers will show no brand logo (BIMI) with this message',
      explanation: `${value.reason ?? `BIMI ${value.result}`}. BIMI lets Gmail, Yahoo and Apple Mail show your logo next to your messages, once DMARC is enforced (quarantine or reject) and the domain publishes a BIMI record.`,
      fix: value.result === 'none' ? 'Once DMARC is at quarantine or reject, publish "v=BIMI1; l=https://<your domain>/logo.svg; a=<mark certificate URL>" at default._bimi.<your domain>.' : null,
      reference: DRAFT,
      points: 0,
    }),
  ];
}
