import type { Finding, MtaStsDetails } from '@sendwell/contracts';
import type { Check, CheckResult } from '../types.js';
import { discoverMx, discoverRecords, type MxDiscovery } from './discovery.js';
import { coverageFindings, fetchFindings, ignoredRecordFinding, missingFinding, modeFindings, multipleRecordsFinding, mxFindings, mediaType } from './findings.js';
import { fetchPolicy, type PolicyFetch } from './policy-fetch.js';
import { mxCoverage, parseStsPolicy, type MxCoverage, type StsPolicy } from './policy.js';
import { parseStsRecord } from './record.js';
import { missingResult, mtaStsVerdict, unknownResult } from './verdict.js';

/**
 * MTA-STS (RFC 8461) as a sending MTA sees it: the `_mta-sts` TXT record (§3.1), the policy fetched
 * over HTTPS from the policy host (§3.3) and parsed (§3.2), and every MX host of the domain matched
 * against the policy's `mx` patterns (§4.1), since an uncovered MX host under `enforce` receives no mail.
 */
export const mtaStsCheck: Check<'mta_sts'> = async ({ domain, resolver, config }): Promise<CheckResult<MtaStsDetails>> => {
  const discovery = await discoverRecords(resolver, domain);
  if (discovery.outcome === 'failed') return unknownResult(domain, discovery.reason);
  const { records, ignored } = discovery;
  if (records.length === 0 && ignored.length === 0) return missingResult(domain, missingFinding(domain));
  if (records.length === 0) {
    const findings = ignored.map((record) => ignoredRecordFinding(domain, record));
    return mtaStsVerdict({ domain, record: null, records: ignored, id: null, fetch: null, policy: null, coverage: [], findings, undetermined: false });
  }

  const record = records.length === 1 ? (records[0] as string) : null;
  const parsed = record === null ? null : parseStsRecord(record);
  const recordFindings = parsed ? parsed.findings : [multipleRecordsFinding(domain, records)];
  // The policy host is fetched even when the record is faulty: the user gets every fault in one scan.
  const [fetch, mx] = await Promise.all([
    fetchPolicy(resolver, domain, { port: config.httpsPort, timeoutMs: config.timeoutMs, outbound: config.outbound, extraCa: config.tlsExtraCa }),
    discoverMx(resolver, domain),
  ]);
  const policy = policyOf(fetch);
  const coverage: MxCoverage[] = policy && mx.outcome === 'answered' ? mxCoverage(mx.exchanges, policy.mx) : [];
  const findings: Finding[] = [...recordFindings, ...fetchFindings(fetch), ...(policy ? policyFindings(domain, policy, coverage, mx) : [])];
  return mtaStsVerdict({
    domain,
    record,
    records,
    id: parsed?.id ?? null,
    fetch,
    policy,
    coverage,
    findings,
    undetermined: fetch.dnsError !== null || (policy !== null && mx.outcome === 'failed'),
  });
};

/** The policy when senders would read one: a 200 answer as text/plain within the size limit. */
function policyOf(fetch: PolicyFetch): StsPolicy | null {
  const response = fetch.response;
  if (!response || response.status !== 200 || response.body === null || mediaType(response.contentType) !== 'text/plain') return null;
  return parseStsPolicy(response.body);
}

function policyFindings(domain: string, policy: StsPolicy, coverage: MxCoverage[], mx: MxDiscovery): Finding[] {
  return [...policy.findings, ...modeFindings(policy), ...coverageFindings(coverage, policy.mode), ...mxFindings(domain, mx)];
}
