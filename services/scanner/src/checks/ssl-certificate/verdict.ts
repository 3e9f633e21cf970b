import type { Finding, SslDetails } from '@sendwell/contracts';
import type { CheckResult } from '../types.js';
import type { HostResult } from './host-result.js';

type SslResult = CheckResult<SslDetails>;
/** The details without findings: the hosts and the certificate shown on the card. */
type CertificateSummary = Omit<SslResult['details'], 'findings'>;

/** From the domain's and www's results: no host to test (why), else graded on the worst finding. */
export function sslVerdict(domain: string, apex: HostResult, www: HostResult): SslResult {
  const findings: Finding[] = [...apex.findings, ...www.findings];
  // The certificate shown on the card: the domain's own, else www's when only www has a web host.
  const primary = apex.address !== null ? apex : www.address !== null ? www : apex;
  const summary = certificateSummary([apex, www], primary);
  if (apex.address === null && www.address === null) return untestedVerdict(domain, apex, www, summary, findings);
  if (apex.address === null && apex.noAddress) {
    findings.push({
      code: 'SSL_NO_APEX_HOST',
      severity: 'info',
      message: `${domain} has no A or AAAA record; the certificate of www.${domain} was checked instead.`,
      rfc: 'RFC 6066 §3',
    });
  }
  return gradedVerdict(primary, summary, findings);
}

function certificateSummary(hosts: readonly HostResult[], primary: HostResult): CertificateSummary {
  return {
    hosts: hosts.map(hostSummary),
    issuer: primary.issuer,
    expiresAt: primary.expiresAt,
    ...(primary.daysRemaining !== null ? { daysRemaining: primary.daysRemaining } : {}),
    validFrom: primary.validFrom,
    subject: primary.subject,
    altNames: primary.altNames,
    protocol: primary.protocol,
    authorized: primary.reachable ? primary.authorized && primary.hostnameMatches === true : false,
    keyType: primary.keyType,
    keyBits: primary.keyBits,
    serialNumber: primary.serialNumber,
    fingerprint256: primary.fingerprint256,
  };
}

function hostSummary(result: HostResult): Record<string, unknown> {
  const { findings: _findings, ...rest } = result;
  return rest;
}

/** No host was connected to: only private addresses, DNS failures, or no web host at all. */
function untestedVerdict(domain: string, apex: HostResult, www: HostResult, summary: CertificateSummary, findings: Finding[]): SslResult {
  const privateOnly = findings.find((finding) => finding.code === 'SSL_PRIVATE_ADDRESS');
  if (privateOnly) {
    return {
      type: 'ssl_certificate',
      status: 'warning',
      value: null,
      message: privateOnly.message,
      recommendation: privateOnly.recommendation ?? null,
      details: { ...summary, findings },
    };
  }
  const dnsFailed = apex.dnsError !== null || www.dnsError !== null;
  if (dnsFailed) {
    return {
      type: 'ssl_certificate',
      status: 'unknown',
      value: null,
      message: 'The web host addresses could not be looked up, so the certificate was not checked.',
      recommendation: null,
      details: { ...summary, error: apex.dnsError ?? www.dnsError, findings },
    };
  }
  findings.push({
    code: 'SSL_NO_HOST',
    severity: 'info',
    message: `Neither ${domain} nor www.${domain} has an A or AAAA record, so there is no web host whose certificate could be checked.`,
    rfc: 'RFC 6066 §3',
    recommendation: 'Nothing to do if the domain serves no web site; otherwise point it at a web host with a valid certificate.',
  });
  return {
    type: 'ssl_certificate',
    status: 'missing',
    value: null,
    message: `${domain} has no web host to check a certificate on.`,
    recommendation: null,
    details: { ...summary, findings },
  };
}

function gradedVerdict(primary: HostResult, summary: CertificateSummary, findings: Finding[]): SslResult {
  const errors = findings.filter((finding) => finding.severity === 'error');
  const warnings = findings.filter((finding) => finding.severity === 'warning');
  const top = errors[0] ?? warnings[0];
  return {
    type: 'ssl_certificate',
    status: errors.length > 0 ? 'error' : warnings.length > 0 ? 'warning' : 'valid',
    value: primary.reachable ? `${primary.issuer ?? 'unknown issuer'}${primary.expiresAt ? `, expires ${primary.expiresAt.slice(0, 10)}` : ''}` : null,
    message: top ? top.message : `Valid certificate from ${primary.issuer ?? 'a trusted CA'}, expires in ${primary.daysRemaining ?? '?'} days.`,
    recommendation: top?.recommendation ?? null,
    details: { ...summary, findings },
  };
}
