import type { Finding } from '@sendwell/contracts';
import { describeRefused } from '../outbound-targets.js';
import type { MxDiscovery } from './discovery.js';
import { MAX_POLICY_BYTES, type CertificateProblem, type PolicyFetch } from './policy-fetch.js';
import type { MxCoverage, StsMode, StsPolicy } from './policy.js';

/** Findings of MTA-STS beyond the syntax of the record and the policy (record.ts, policy.ts). */

/** Below a day the policy lapses between a sender's visits, which is when a downgrade can strike (§3.2: weeks or more). */
export const SHORT_MAX_AGE = 86_400;
const DAY = 86_400;

const suggestedPolicy = (domain: string): string =>
  `the lines "version: STSv1", "mode: testing", one "mx: <host>" per MX host of ${domain} and "max_age: 604800"`;

export function missingFinding(domain: string): Finding {
  return {
    code: 'MTA_STS_MISSING',
    severity: 'warning',
    message: `No MTA-STS record at _mta-sts.${domain}, so a network attacker can strip TLS from mail sent to ${domain} and downgrade it to plaintext.`,
    rfc: 'RFC 8461 §3.1',
    recommendation: `Serve a policy at https://mta-sts.${domain}/.well-known/mta-sts.txt with ${suggestedPolicy(domain)}, then publish the TXT record "v=STSv1; id=20250101000000" at _mta-sts.${domain}.`,
  };
}

export function multipleRecordsFinding(domain: string, records: readonly string[]): Finding {
  return {
    code: 'MTA_STS_MULTIPLE_RECORDS',
    severity: 'error',
    message: `_mta-sts.${domain} has ${records.length} MTA-STS records, so senders ignore MTA-STS for ${domain} altogether.`,
    rfc: 'RFC 8461 §3.1',
    recommendation: `Keep exactly one TXT record starting with "v=STSv1" at _mta-sts.${domain}.`,
  };
}

export function ignoredRecordFinding(domain: string, record: string): Finding {
  return {
    code: 'MTA_STS_RECORD_INVALID',
    severity: 'error',
    message: `The record "${record}" at _mta-sts.${domain} does not start with exactly "v=STSv1", so senders ignore it.`,
    rfc: 'RFC 8461 §3.1',
    recommendation: 'Start the record with "v=STSv1;" (case-sensitive, no blanks around "="), e.g. "v=STSv1; id=20250101000000".',
  };
}

/** What the fetch of the policy showed (RFC 8461 §3.3): each way of failing has its own code. */
export function fetchFindings(fetch: PolicyFetch): Finding[] {
  const findings: Finding[] = [];
  if (fetch.refused.length > 0) findings.push(refusedFinding(fetch));
  if (fetch.noAddress) {
    findings.push(policyError(fetch, 'MTA_STS_POLICY_HOST_NOT_FOUND', `${fetch.host} has no A or AAAA record, so senders cannot fetch the MTA-STS policy.`, `Point ${fetch.host} at a web server that serves the policy over HTTPS.`));
  }
  if (fetch.dnsError) {
    findings.push({
      code: 'MTA_STS_POLICY_HOST_LOOKUP_FAILED',
      severity: 'info',
      message: `The address lookup of ${fetch.host} ${fetch.dnsError}, so the policy was not fetched.`,
      rfc: 'RFC 8461 §3.3',
      host: fetch.host,
    });
  }
  if (fetch.unreachable) {
    findings.push(
      policyError(
        fetch,
        'MTA_STS_POLICY_UNREACHABLE',
        `The policy at ${fetch.url} could not be fetched (${fetch.unreachable}), so senders apply no MTA-STS policy.`,
        `Serve ${fetch.url} over HTTPS (TLS 1.2 or later) on port ${fetch.port}.`,
      ),
    );
  }
  findings.push(...fetch.certificate.map((problem) => certificateFinding(fetch, problem.problem, problem.detail)));
  if (fetch.response) findings.push(...responseFindings(fetch, fetch.response));
  return findings;
}

function policyError(fetch: PolicyFetch, code: string, message: string, recommendation: string, rfc = 'RFC 8461 §3.3'): Finding {
  return { code, severity: 'error', message, rfc, recommendation, host: fetch.host };
}

function refusedFinding(fetch: PolicyFetch): Finding {
  return {
    code: 'MTA_STS_POLICY_PRIVATE_ADDRESS',
    severity: 'warning',
    message: `${fetch.host} points at ${describeRefused(fetch.refused)}, which the scanner does not connect to${fetch.address === null ? ', so the policy was not fetched' : ''}.`,
    rfc: 'RFC 6890',
    recommendation: `Publish only public addresses in the A and AAAA records of ${fetch.host}: senders on the Internet cannot reach the others.`,
    host: fetch.host,
  };
}

const CERTIFICATE_WORDS: Record<CertificateProblem, { code: string; text: (host: string, detail: string) => string; fix: (host: string) => string }> = {
  untrusted: {
    code: 'MTA_STS_POLICY_CERT_UNTRUSTED',
    text: (host, detail) => `the certificate of ${host} does not chain to a trusted root (${detail})`,
    fix: (host) => `Install a certificate for ${host} from a publicly trusted CA, with its intermediate certificates.`,
  },
  expired: {
    code: 'MTA_STS_POLICY_CERT_EXPIRED',
    text: (host, detail) => `the certificate of ${host} is ${detail === 'CERT_NOT_YET_VALID' ? 'not valid yet' : 'expired'} (${detail})`,
    fix: (host) => `Renew the certificate of ${host} and automate its renewal (ACME, RFC 8555).`,
  },
  name: {
    code: 'MTA_STS_POLICY_CERT_NAME_MISMATCH',
    text: (host, detail) => `the certificate presented for ${host} is not issued for that name (${detail})`,
    fix: (host) => `Issue a certificate whose subjectAltName includes ${host}.`,
  },
};

function certificateFinding(fetch: PolicyFetch, problem: CertificateProblem, detail: string): Finding {
  const words = CERTIFICATE_WORDS[problem];
  return policyError(fetch, words.code, `The MTA-STS policy cannot be fetched securely: ${words.text(fetch.host, detail)}, so senders ignore the policy.`, words.fix(fetch.host));
}

/** The media type without parameters, lower-case ("text/plain; charset=utf-8" is text/plain). */
export function mediaType(contentType: string | null): string | null {
  if (contentType === null) return null;
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/** A redirect, another status, another media type or an oversized body: senders take no policy from it. */
function responseFindings(fetch: PolicyFetch, response: NonNullable<PolicyFetch['response']>): Finding[] {
  const { status } = response;
  if (status >= 300 && status < 400) {
    return [
      policyError(
        fetch,
        'MTA_STS_POLICY_REDIRECT',
        `${fetch.url} answers with a redirect (HTTP ${status}${response.location ? ` to ${response.location}` : ''}), which senders do not follow, so they get no policy.`,
        `Serve the policy file itself at ${fetch.url}, with status 200.`,
      ),
    ];
  }
  if (status !== 200) {
    return [policyError(fetch, 'MTA_STS_POLICY_HTTP_STATUS', `${fetch.url} answers HTTP ${status} instead of 200, so senders get no policy.`, `Serve the policy file at ${fetch.url} with status 200.`)];
  }
  const findings: Finding[] = [];
  const type = mediaType(response.contentType);
  if (type !== 'text/plain') {
    findings.push(
      policyError(
        fetch,
        'MTA_STS_POLICY_CONTENT_TYPE',
        `${fetch.url} is served as ${type ?? 'no media type'} instead of text/plain, so senders reject the policy.`,
        'Serve the policy file with "Content-Type: text/plain".',
        'RFC 8461 §3.2',
      ),
    );
  }
  if (response.tooLarge) {
    findings.push(
      policyError(fetch, 'MTA_STS_POLICY_TOO_LARGE', `${fetch.url} is larger than ${MAX_POLICY_BYTES / 1024} KB, more than senders read, so they get no policy.`, 'Serve only the policy fields (version, mode, max_age, mx): a policy is a few lines.'),
    );
  }
  return findings;
}

/** The policy's mode and lifetime: not enforced yet, being withdrawn, or cached too briefly. */
export function modeFindings(policy: StsPolicy): Finding[] {
  const findings: Finding[] = [];
  if (policy.mode === 'testing') {
    findings.push({
      code: 'MTA_STS_MODE_TESTING',
      severity: 'warning',
      message: 'The MTA-STS policy is in testing mode: senders report failures but still deliver over unauthenticated or plaintext connections.',
      rfc: 'RFC 8461 §5',
      recommendation: 'Once TLS reports show every MX host passes, set "mode: enforce" and change the record\'s id.',
    });
  } else if (policy.mode === 'none') {
    findings.push({
      code: 'MTA_STS_MODE_NONE',
      severity: 'warning',
      message: 'The MTA-STS policy has mode none, which withdraws the policy: senders apply no MTA-STS protection.',
      rfc: 'RFC 8461 §8.3',
      recommendation: 'If MTA-STS is not being removed on purpose, set "mode: testing" or "mode: enforce" and change the record\'s id.',
    });
  }
  if (policy.maxAge !== null && policy.maxAge < SHORT_MAX_AGE) {
    findings.push({
      code: 'MTA_STS_MAX_AGE_SHORT',
      severity: 'warning',
      message: `The policy's max_age is ${policy.maxAge} seconds, less than a day, so senders' cached policy often lapses and a downgrade attack at refresh time goes unnoticed.`,
      rfc: 'RFC 8461 §3.2',
      recommendation: `Set max_age to weeks, e.g. "max_age: ${14 * DAY}" (two weeks), once the policy is stable.`,
    });
  }
  return findings;
}

/** An MX host no pattern matches: senders refuse it under enforce (mail to it fails) and report it under testing. */
export function coverageFindings(coverage: readonly MxCoverage[], mode: StsMode | null): Finding[] {
  if (mode !== 'enforce' && mode !== 'testing') return [];
  return coverage
    .filter((entry) => !entry.covered)
    .map((entry) => ({
      code: 'MTA_STS_MX_NOT_COVERED',
      severity: mode === 'enforce' ? ('error' as const) : ('warning' as const),
      message:
        mode === 'enforce'
          ? `The MX host ${entry.exchange} matches no mx pattern of the enforced policy, so senders refuse to deliver to it.`
          : `The MX host ${entry.exchange} matches no mx pattern of the policy; in enforce mode senders would refuse to deliver to it.`,
      rfc: 'RFC 8461 §4.1',
      recommendation: `Add "mx: ${entry.exchange}" (or a "*." pattern covering it) to the policy and change the record's id.`,
      exchange: entry.exchange,
    }));
}

/** The MX lookup failed, or there is no MX host to match. */
export function mxFindings(domain: string, mx: MxDiscovery): Finding[] {
  if (mx.outcome === 'failed') {
    return [{ code: 'MTA_STS_MX_LOOKUP_FAILED', severity: 'info', message: `The MX lookup of ${domain} ${mx.reason}, so the policy's mx patterns were not compared with the MX hosts.`, rfc: 'RFC 8461 §4.1' }];
  }
  if (mx.exchanges.length > 0) return [];
  return [
    {
      code: 'MTA_STS_NO_MX',
      severity: 'info',
      message: mx.nullMx
        ? `${domain} publishes a null MX (it accepts no mail), so an MTA-STS policy has nothing to protect.`
        : `${domain} has no MX records, so MTA-STS protects no MX host.`,
      rfc: 'RFC 8461 §4.1',
    },
  ];
}
