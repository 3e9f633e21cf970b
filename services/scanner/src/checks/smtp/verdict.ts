import type { Finding, SmtpDetails } from '@sendwell/contracts';
import { mostSevereRecommendation } from '../recommendation.js';
import type { CheckResult } from '../types.js';
import type { SmtpHostResult } from '../shared/mx-probe/host-result.js';
import { MAX_MX_HOSTS, type MxPlan } from '../shared/mx-probe/mx-hosts.js';

type SmtpResult = CheckResult<SmtpDetails>;

/** The MX lookup failed, or there is no MX host to probe: unknown or missing. */
export function noHostVerdict(domain: string, plan: MxPlan): SmtpResult {
  if (plan.error !== null) {
    return {
      type: 'smtp',
      status: 'unknown',
      value: null,
      message: `The MX records of ${domain} could not be looked up, so its mail servers were not probed.`,
      recommendation: null,
      details: { hosts: [], error: plan.error, findings: [] },
    };
  }
  const finding: Finding = plan.nullMx
    ? {
        code: 'SMTP_NULL_MX',
        severity: 'info',
        message: `${domain} publishes a null MX: it accepts no mail, so there is no mail server to probe.`,
        rfc: 'RFC 7505 §3',
      }
    : {
        code: 'SMTP_NO_MX',
        severity: 'warning',
        message: `${domain} has no MX record, so there is no mail server to probe; senders fall back to its A/AAAA address.`,
        rfc: 'RFC 5321 §5.1',
        recommendation: `Publish MX records for the hosts that receive mail for ${domain}, or a null MX (RFC 7505) if it receives none.`,
      };
  return {
    type: 'smtp',
    status: 'missing',
    value: null,
    message: finding.message,
    recommendation: finding.recommendation ?? null,
    details: { hosts: [], findings: [finding] },
  };
}

/** Graded on the worst finding; when no host answered and the domain is not to blame, unknown. */
export function smtpVerdict(domain: string, plan: MxPlan, hosts: readonly SmtpHostResult[]): SmtpResult {
  const findings = hosts.flatMap((host) => host.findings);
  if (plan.skipped > 0) {
    findings.push({
      code: 'SMTP_HOSTS_LIMITED',
      severity: 'info',
      message: `${domain} has ${plan.skipped + MAX_MX_HOSTS} MX hosts; the ${MAX_MX_HOSTS} with the lowest preference were probed.`,
      rfc: 'RFC 5321 §5.1',
    });
  }
  const details = { hosts: hosts.map(hostDetails), findings };
  const greeted = hosts.filter((host) => host.greeted);
  const top = findings.find((f) => f.severity === 'error') ?? findings.find((f) => f.severity === 'warning');
  if (greeted.length === 0 && !top) {
    const port = hosts[0]?.port ?? 25;
    const dnsOnly = hosts.every((host) => host.dnsError !== null && host.ip === null);
    return {
      type: 'smtp',
      status: 'unknown',
      value: null,
      message: dnsOnly
        ? `The addresses of the MX hosts of ${domain} could not be looked up, so they were not probed.`
        : `No MX host of ${domain} answered on port ${port}; many networks block outbound port ${port}, so this may be the scanner's network rather than the domain.`,
      recommendation: null,
      details,
    };
  }
  return {
    type: 'smtp',
    status: top ? top.severity === 'error' ? 'error' : 'warning' : 'valid',
    value: greeted.length > 0 ? cardValue(greeted) : null,
    message: top ? top.message : validMessage(greeted),
    recommendation: top ? (top.recommendation ?? mostSevereRecommendation(findings)) : null,
    details,
  };
}

/** "STARTTLS on 2 of 2 MX hosts, TLSv1.3" (the oldest version negotiated). */
function cardValue(greeted: readonly SmtpHostResult[]): string {
  const withTls = greeted.filter((host) => host.starttls);
  const versions = greeted.map((host) => host.tlsVersion).filter((version): version is string => version !== null).sort();
  return `STARTTLS on ${withTls.length} of ${greeted.length} MX host${greeted.length === 1 ? '' : 's'}${versions[0] ? `, ${versions[0]}` : ''}`;
}

function validMessage(greeted: readonly SmtpHostResult[]): string {
  const versions = [...new Set(greeted.map((host) => host.tlsVersion).filter((version): version is string => version !== null))].sort().join(', ');
  const first = greeted[0];
  if (greeted.length === 1 && first) return `${first.exchange} offers STARTTLS with a trusted certificate for its name (${versions}).`;
  return `All ${greeted.length} MX hosts offer STARTTLS with trusted certificates for their names (${versions}).`;
}

function hostDetails(host: SmtpHostResult): SmtpDetails['hosts'] extends Array<infer H> | undefined ? H : never {
  return {
    exchange: host.exchange,
    preference: host.preference,
    ip: host.ip,
    port: host.port,
    banner: host.banner,
    bannerMs: host.bannerMs,
    ...(host.unreliableBannerTiming ? { unreliableBannerTiming: { ...host.unreliableBannerTiming } } : {}),
    greetingName: host.greetingName,
    greetingNameMatches: host.greetingNameMatches,
    extensions: host.extensions,
    starttls: host.starttls,
    tlsVersion: host.tlsVersion,
    cipher: host.cipher,
    certificate: host.certificate ? { ...host.certificate } : null,
    refused: host.refused.map((target) => target.address),
    error: host.error ?? host.dnsError ?? (host.noAddress ? 'no A or AAAA record' : null),
  };
}
