import type { Finding } from '@sendwell/contracts';
import { describeRefused } from '../outbound-targets.js';
import type { SmtpHostResult } from '../shared/mx-probe/host-result.js';

/** Days before expiry from which an MX certificate is reported as expiring soon. */
const EXPIRY_WARNING_DAYS = 14;

export interface FindingContext {
  /** At least one MX host greeted the scanner: silence elsewhere is then the host's, not our network's. */
  someAnswered: boolean;
  /** Whether another MX host has an address, so a host without one only delays mail. */
  someAddressed: boolean;
  slowBannerMs: number;
  now: number;
}

function hostFinding(host: SmtpHostResult, code: string, severity: Finding['severity'], message: string, rfc: string, recommendation?: string): Finding {
  return { code, severity, message: `${host.exchange}: ${message}`, rfc, ...(recommendation ? { recommendation } : {}), host: host.exchange };
}

/** Everything found about one MX host, before the greeting-name check (which needs DNS). */
export function hostFindings(host: SmtpHostResult, context: FindingContext): Finding[] {
  const findings: Finding[] = [];
  if (host.refused.length > 0) findings.push(refusedFinding(host));
  if (host.noAddress) findings.push(noAddressFinding(host, context));
  if (host.dnsError !== null) findings.push(lookupFailedFinding(host, context));
  if (host.ip === null) return findings;
  if (!host.greeted) {
    findings.push(unansweredFinding(host, context));
    return findings;
  }
  if (host.bannerMs !== null && host.bannerMs > context.slowBannerMs) findings.push(slowBannerFinding(host));
  if (host.unreliableBannerTiming) findings.push(unreliableBannerFinding(host, host.unreliableBannerTiming));
  if (host.errorStage === 'ehlo') {
    findings.push(
      hostFinding(
        host,
        'SMTP_EHLO_REJECTED',
        'warning',
        `${host.error ?? 'EHLO failed'}, so its extensions (STARTTLS among them) could not be read.`,
        'RFC 5321 §4.1.1.1',
        'Accept EHLO from any well-formed client name and list the extensions, STARTTLS included, in the reply.',
      ),
    );
    return findings;
  }
  findings.push(...transportFindings(host, context.now));
  return findings;
}

function refusedFinding(host: SmtpHostResult): Finding {
  const probed = host.ip !== null;
  return hostFinding(
    host,
    'SMTP_PRIVATE_ADDRESS',
    'warning',
    `points at ${describeRefused(host.refused)}, which the scanner does not connect to${probed ? `; ${host.ip} was probed instead` : ''}. Other senders cannot deliver to such an address either.`,
    'RFC 6890',
    `Publish only public addresses in the A and AAAA records of ${host.exchange}.`,
  );
}

function noAddressFinding(host: SmtpHostResult, context: FindingContext): Finding {
  return hostFinding(
    host,
    'SMTP_MX_NO_ADDRESS',
    context.someAddressed ? 'warning' : 'error',
    `the MX host has no A or AAAA record, so no mail can be delivered to it${context.someAddressed ? '; senders move on to the other MX hosts' : ''}.`,
    'RFC 5321 §5.1',
    `Give ${host.exchange} an A (and AAAA) record, or remove it from the MX records.`,
  );
}

function lookupFailedFinding(host: SmtpHostResult, context: FindingContext): Finding {
  return hostFinding(
    host,
    'SMTP_LOOKUP_FAILED',
    context.someAnswered ? 'warning' : 'info',
    `its addresses could not be looked up (${host.dnsError}), so it was not probed.`,
    'RFC 5321 §5.1',
    `Check that the name servers answer for ${host.exchange}.`,
  );
}

/** No connection, no greeting, or a refusing greeting: when no host answered, possibly our network's doing. */
function unansweredFinding(host: SmtpHostResult, context: FindingContext): Finding {
  if (host.errorStage === 'greeting' && host.banner !== null) {
    return hostFinding(
      host,
      'SMTP_GREETING_REJECTED',
      context.someAnswered ? 'warning' : 'info',
      `${host.error ?? 'the server refused the session'}. The server refuses the session, perhaps only to the scanner's network.`,
      'RFC 5321 §3.1',
      'If the server should accept mail, have it greet with 220; check whether it refuses whole networks.',
    );
  }
  return hostFinding(
    host,
    'SMTP_UNREACHABLE',
    context.someAnswered ? 'warning' : 'info',
    context.someAnswered
      ? `no SMTP service on port ${host.port} at ${host.ip} (${host.error ?? 'no answer'}), while another MX host answered.`
      : `no SMTP service on port ${host.port} at ${host.ip} (${host.error ?? 'no answer'}). Many networks block outbound port ${host.port}, so this may be the scanner's network rather than the domain.`,
    'RFC 5321 §3.1',
    `Make sure ${host.exchange} accepts connections on port ${host.port} from the whole Internet.`,
  );
}

function slowBannerFinding(host: SmtpHostResult): Finding {
  const seconds = ((host.bannerMs ?? 0) / 1000).toFixed(1);
  return hostFinding(
    host,
    'SMTP_BANNER_SLOW',
    'warning',
    `the 220 greeting took ${seconds} s. RFC 5321 asks senders to wait up to 5 minutes, but many give up or defer far sooner.`,
    'RFC 5321 §4.5.3.2.1',
    'Send the greeting promptly; if a greeting delay is used against spam (e.g. postscreen), keep it to a few seconds.',
  );
}

/** The scanner's own event loop was stalled while it waited for the greeting: the time is not held against the host. */
function unreliableBannerFinding(host: SmtpHostResult, timing: { measuredMs: number; lagMs: number }): Finding {
  return hostFinding(
    host,
    'SMTP_TIMING_UNRELIABLE',
    'info',
    `the 220 greeting arrived after ${(timing.measuredMs / 1000).toFixed(1)} s, but the scanner itself was too busy for ${(timing.lagMs / 1000).toFixed(1)} s of it, so the time is not held against the host.`,
    'RFC 5321 §4.5.3.2.1',
  );
}

/** STARTTLS, the handshake, the certificate and the protocol version. */
function transportFindings(host: SmtpHostResult, now: number): Finding[] {
  if (!host.starttls) {
    return [
      hostFinding(
        host,
        'SMTP_STARTTLS_MISSING',
        'error',
        'the server does not offer STARTTLS, so mail to it travels in plaintext.',
        'RFC 3207 §4',
        `Enable STARTTLS on ${host.exchange} with a certificate for that name from a trusted CA.`,
      ),
    ];
  }
  if (host.errorStage === 'starttls') {
    return [hostFinding(host, 'SMTP_STARTTLS_FAILED', 'error', `the server offers STARTTLS, but ${host.error ?? 'refused it'}; mail to it travels in plaintext.`, 'RFC 3207 §4', 'Fix the TLS configuration of the mail server (certificate and key readable, TLS enabled).')];
  }
  if (host.errorStage === 'tls') {
    return [
      hostFinding(
        host,
        'SMTP_TLS_HANDSHAKE_FAILED',
        'error',
        `the server offers STARTTLS, but the TLS handshake failed (${host.error ?? 'unknown error'}); senders fall back to plaintext or defer the mail.`,
        'RFC 3207 §4.1',
        'Fix the TLS configuration of the mail server: a valid certificate and key, TLS 1.2 and 1.3 enabled.',
      ),
    ];
  }
  return [...certificateFindings(host, now), ...versionFindings(host)];
}

function certificateFindings(host: SmtpHostResult, now: number): Finding[] {
  const cert = host.certificate;
  if (host.tlsVersion === null) return [];
  if (cert === null) {
    return [hostFinding(host, 'SMTP_CERT_UNTRUSTED', 'warning', 'the server sent no certificate after STARTTLS.', 'RFC 8461 §4.2', `Install a certificate for ${host.exchange} from a trusted CA.`)];
  }
  const findings: Finding[] = [];
  const days = cert.daysRemaining;
  const renew = 'Renew the certificate and automate renewal (ACME, RFC 8555); senders that enforce MTA-STS or DANE refuse an expired certificate.';
  if (days !== null && cert.validTo !== null && Date.parse(cert.validTo) <= now) {
    const ago = -days;
    findings.push(hostFinding(host, 'SMTP_CERT_EXPIRED', 'error', `the STARTTLS certificate expired on ${cert.validTo.slice(0, 10)} (${ago === 0 ? 'today' : `${ago} day${ago === 1 ? '' : 's'} ago`}).`, 'RFC 5280 §4.1.2.5', renew));
  } else if (cert.validFrom !== null && Date.parse(cert.validFrom) > now) {
    findings.push(hostFinding(host, 'SMTP_CERT_NOT_YET_VALID', 'error', `the STARTTLS certificate is not valid until ${cert.validFrom.slice(0, 10)}.`, 'RFC 5280 §4.1.2.5', "Install a currently valid certificate, or check the server's clock."));
  } else if (days !== null && days <= EXPIRY_WARNING_DAYS) {
    findings.push(hostFinding(host, 'SMTP_CERT_EXPIRING_SOON', 'warning', `the STARTTLS certificate expires in ${days} day${days === 1 ? '' : 's'} (${cert.validTo?.slice(0, 10)}).`, 'RFC 5280 §4.1.2.5', renew));
  }
  if (!cert.trusted) {
    findings.push(
      hostFinding(
        host,
        'SMTP_CERT_UNTRUSTED',
        'warning',
        `the STARTTLS certificate is not trusted (${cert.authorizationError ?? 'unknown reason'}). Opportunistic TLS still encrypts, but senders that enforce MTA-STS refuse to deliver.`,
        'RFC 8461 §4.2',
        `Install a certificate for ${host.exchange} from a publicly trusted CA, with its intermediate certificates.`,
      ),
    );
  }
  if (!cert.nameMatches) {
    const names = cert.altNames.length > 0 ? cert.altNames.join(', ') : (cert.subject ?? 'another name');
    findings.push(
      hostFinding(
        host,
        'SMTP_CERT_NAME_MISMATCH',
        'warning',
        `the STARTTLS certificate is issued for ${names}, not for ${host.exchange}. Opportunistic TLS still encrypts, but MTA-STS senders (and DANE senders with a DANE-TA record) refuse to deliver.`,
        'RFC 8461 §4.2',
        `Issue a certificate whose subjectAltName includes ${host.exchange}.`,
      ),
    );
  }
  return findings;
}

function versionFindings(host: SmtpHostResult): Finding[] {
  const version = host.tlsVersion;
  if (version === null || !/^(?:SSLv|TLSv1$|TLSv1\.1$)/.test(version)) return [];
  return [
    hostFinding(
      host,
      'SMTP_TLS_OLD_VERSION',
      'warning',
      `STARTTLS negotiated ${version}, which is deprecated; the server offers nothing newer to the scanner.`,
      version === 'TLSv1.1' ? 'RFC 8996 §3' : 'RFC 8996 §2',
      'Enable TLS 1.2 and TLS 1.3 on the mail server.',
    ),
  ];
}
