import type { TlsRptDetails } from '@sendwell/contracts';
import { DnsServerError, DnsTimeoutError } from '../../dns/types.js';
import type { Check, CheckResult } from '../types.js';
import { isTlsRptRecord, looksLikeTlsRptRecord, parseTlsRptRecord } from './record.js';
import { missingResult, recordResult, unknownResult, voidResult } from './verdict.js';

/**
 * SMTP TLS Reporting (RFC 8460 §3): the `_smtp._tls` TXT record that tells senders where to report
 * failed TLS connections to the domain's MX hosts (STARTTLS, MTA-STS, DANE), each `rua` destination
 * checked to be a mailto: or https: URI.
 */
export const tlsRptCheck: Check<'tls_rpt'> = async ({ domain, resolver }): Promise<CheckResult<TlsRptDetails>> => {
  let txt: string[];
  try {
    txt = await resolver.lookup(`_smtp._tls.${domain}`, 'TXT');
  } catch (error) {
    if (error instanceof DnsTimeoutError) return unknownResult(domain, 'timed out');
    if (error instanceof DnsServerError) return unknownResult(domain, `failed (${error.rcode})`);
    throw error;
  }
  const records = txt.filter(isTlsRptRecord);
  if (records.length > 1) return voidResult(domain, records, 'multiple');
  const record = records[0];
  if (record === undefined) {
    const ignored = txt.filter(looksLikeTlsRptRecord);
    return ignored.length > 0 ? voidResult(domain, ignored, 'ignored') : missingResult(domain);
  }
  const parsed = parseTlsRptRecord(record, domain);
  return recordResult(record, parsed.rua, parsed.validRua, parsed.findings);
};
