import type { Finding } from '@sendwell/contracts';
import { describeRefused } from '../outbound-targets.js';
import type { MarkCertificate } from './certificate.js';
import type { HttpsFetch, TlsProblem } from '../https-fetch.js';
import type { SvgRule, SvgViolation } from './svg.js';

/** Findings of the BIMI check beyond the record's syntax (record.ts) and the DMARC precondition (dmarc.ts). */

export const DRAFT = 'draft-brand-indicators-for-message-identification';
export const TINY_PS = 'draft-svg-tiny-ps-abrotman §2';
const VMC_DRAFT = 'draft-fetch-validation-vmc-wchuang';
const MC_GUIDELINES = 'BIMI Group MC Guidelines §7.1';
/** The BIMI Group's guidance: the SVG file should stay under 32 KB. */
export const MAX_LOGO_BYTES = 32 * 1024;
/** A Mark Certificate file is a few certificates, one of which carries the (compressed) logo. */
export const MAX_CERTIFICATE_BYTES = 256 * 1024;
/** Below this, a Mark Certificate is about to lapse (they are issued for a year, renewal takes validation time). */
export const EXPIRY_WARNING_DAYS = 30;

export function missingFinding(domain: string): Finding {
  return {
    code: 'BIMI_MISSING',
    severity: 'info',
    message: `No BIMI record at default._bimi.${domain}; BIMI is optional and shows your brand logo next to your mail in supporting inboxes.`,
    rfc: `${DRAFT} §4.3`,
    recommendation: `With DMARC at p=quarantine or p=reject, host an SVG Tiny PS logo over HTTPS and publish "v=BIMI1; l=https://${domain}/bimi/logo.svg;" at default._bimi.${domain} (add a= with a Mark Certificate for Gmail and Apple Mail).`,
  };
}

export function multipleRecordsFinding(name: string, count: number): Finding {
  return {
    code: 'BIMI_MULTIPLE_RECORDS',
    severity: 'error',
    message: `${name} has ${count} BIMI records, so receivers apply none and show no logo.`,
    rfc: `${DRAFT} §7.2`,
    recommendation: `Keep exactly one TXT record starting with "v=BIMI1" at ${name}.`,
  };
}

export function ignoredRecordFinding(name: string, record: string): Finding {
  return {
    code: 'BIMI_RECORD_INVALID',
    severity: 'error',
    message: `The record "${record}" at ${name} does not start with exactly "v=BIMI1", so receivers discard it.`,
    rfc: `${DRAFT} §7.2`,
    recommendation: 'Start the record with "v=BIMI1;" (upper case, the first tag).',
  };
}

export function declinedFinding(name: string): Finding {
  return {
    code: 'BIMI_DECLINED',
    severity: 'info',
    message: `${name} declines BIMI (empty l= and a=): receivers show no logo, and a subdomain does not fall back to its organisational domain's logo.`,
    rfc: `${DRAFT} §4.3.1`,
  };
}

export function noCertificateFinding(): Finding {
  return {
    code: 'BIMI_NO_CERTIFICATE',
    severity: 'warning',
    message: 'The record has no a= certificate: Gmail and Apple Mail only show a logo verified by a Mark Certificate (VMC or CMC).',
    rfc: `${DRAFT} §7.3`,
    recommendation: 'Obtain a Verified Mark Certificate (trademarked logo) or a Common Mark Certificate from a Mark Verifying Authority and add "a=https://…/vmc.pem" to the record.',
  };
}

/** Which document a fetch was for, so its findings have their own codes and words. */
export interface Document {
  prefix: 'BIMI_LOGO' | 'BIMI_AUTHORITY';
  /** "the logo", "the certificate file". */
  noun: string;
  limitBytes: number;
}

export const LOGO: Document = { prefix: 'BIMI_LOGO', noun: 'the logo', limitBytes: MAX_LOGO_BYTES };
export const AUTHORITY: Document = { prefix: 'BIMI_AUTHORITY', noun: 'the certificate file', limitBytes: MAX_CERTIFICATE_BYTES };

const TLS_WORDS: Record<TlsProblem, { code: string; text: (host: string, detail: string) => string; fix: (host: string) => string }> = {
  untrusted: {
    code: 'TLS_UNTRUSTED',
    text: (host, detail) => `the HTTPS certificate of ${host} does not chain to a trusted root (${detail})`,
    fix: (host) => `Install a certificate for ${host} from a publicly trusted CA, with its intermediate certificates.`,
  },
  expired: {
    code: 'TLS_EXPIRED',
    text: (host, detail) => `the HTTPS certificate of ${host} is ${detail === 'CERT_NOT_YET_VALID' ? 'not valid yet' : 'expired'} (${detail})`,
    fix: (host) => `Renew the HTTPS certificate of ${host} and automate its renewal (ACME, RFC 8555).`,
  },
  name: {
    code: 'TLS_NAME_MISMATCH',
    text: (host, detail) => `the HTTPS certificate presented for ${host} is not issued for that name (${detail})`,
    fix: (host) => `Issue an HTTPS certificate whose subjectAltName includes ${host}.`,
  },
};

function fetchError(doc: Document, fetch: HttpsFetch, code: string, message: string, recommendation: string, rfc = `${DRAFT} §7.5`): Finding {
  return { code: `${doc.prefix}_${code}`, severity: 'error', message, rfc, recommendation, url: fetch.url };
}

/** What the fetch showed (§7.5): each way of failing has its own code. */
export function fetchFindings(doc: Document, fetch: HttpsFetch): Finding[] {
  const findings: Finding[] = [];
  const { host, url } = fetch;
  if (fetch.refused.length > 0) {
    findings.push({
      code: `${doc.prefix}_PRIVATE_ADDRESS`,
      severity: 'warning',
      message: `${host} points at ${describeRefused(fetch.refused)}, which the scanner does not connect to${fetch.address === null ? `, so ${doc.noun} was not fetched` : ''}.`,
      rfc: 'RFC 6890',
      recommendation: `Publish only public addresses for ${host}: receivers on the Internet cannot reach the others.`,
      url,
    });
  }
  if (fetch.noAddress) findings.push(fetchError(doc, fetch, 'HOST_NOT_FOUND', `${host} has no A or AAAA record, so receivers cannot fetch ${doc.noun}.`, `Point ${host} at the web server that serves ${url}.`));
  if (fetch.dnsError) {
    findings.push({ code: `${doc.prefix}_HOST_LOOKUP_FAILED`, severity: 'info', message: `The address lookup of ${host} ${fetch.dnsError}, so ${doc.noun} was not fetched.`, rfc: `${DRAFT} §7.5`, url });
  }
  if (fetch.unreachable) {
    findings.push(fetchError(doc, fetch, 'UNREACHABLE', `${url} could not be fetched (${fetch.unreachable}), so receivers get no ${doc.noun.replace(/^the /, '')}.`, `Serve ${url} over HTTPS on port ${fetch.port}.`));
  }
  for (const { problem, detail } of fetch.tls) {
    const words = TLS_WORDS[problem];
    findings.push(fetchError(doc, fetch, words.code, `${doc.noun[0]?.toUpperCase()}${doc.noun.slice(1)} cannot be fetched securely: ${words.text(host, detail)}, so receivers reject it.`, words.fix(host)));
  }
  const response = fetch.response;
  if (!response) return findings;
  if (response.status >= 300 && response.status < 400) {
    findings.push(
      fetchError(
        doc,
        fetch,
        'REDIRECT',
        `${url} answers with a redirect (HTTP ${response.status}${response.location ? ` to ${response.location}` : ''}), which receivers do not follow, so they get no ${doc.noun.replace(/^the /, '')}.`,
        `Serve the file itself at ${url} with status 200, or put its final URL in the record.`,
      ),
    );
  } else if (response.status !== 200) {
    findings.push(fetchError(doc, fetch, 'HTTP_STATUS', `${url} answers HTTP ${response.status} instead of 200, so receivers get no ${doc.noun.replace(/^the /, '')}.`, `Serve the file at ${url} with status 200.`));
  } else if (response.tooLarge) {
    const size = response.announcedLength !== null ? `${(response.announcedLength / 1024).toFixed(1)} KB, ` : '';
    findings.push(
      fetchError(
        doc,
        fetch,
        'TOO_LARGE',
        `${url} is ${size}larger than ${doc.limitBytes / 1024} KB, so receivers may refuse it.`,
        doc === LOGO ? 'Simplify the logo (fewer nodes, no embedded fonts or metadata, shorter numbers) until the SVG is under 32 KB.' : 'Serve only the PEM certificates: the Mark Certificate first, then its intermediates.',
        doc === LOGO ? `${DRAFT} §7.6; BIMI Group SVG guidance` : `${DRAFT} §8.3`,
      ),
    );
  }
  return findings;
}

const SVG_CODES: Record<SvgRule, { code: string; fix: string; rfc?: string }> = {
  document: { code: 'BIMI_LOGO_NOT_SVG', fix: 'Serve an SVG document (root <svg xmlns="http://www.w3.org/2000/svg">) saved as SVG Tiny PS.', rfc: `${DRAFT} §7.6` },
  profile: { code: 'BIMI_SVG_PROFILE', fix: 'Set baseProfile="tiny-ps" on the root <svg> element (export as SVG Tiny 1.2, then convert to Tiny PS).' },
  version: { code: 'BIMI_SVG_VERSION', fix: 'Set version="1.2" on the root <svg> element.' },
  title: { code: 'BIMI_SVG_TITLE_MISSING', fix: 'Add <title>Your brand name</title> as the first child of the root <svg> element.' },
  'root-position': { code: 'BIMI_SVG_ROOT_POSITION', fix: 'Remove the x= and y= attributes from the root <svg> element.' },
  square: { code: 'BIMI_SVG_NOT_SQUARE', fix: 'Give the logo a square viewBox (e.g. viewBox="0 0 512 512") and center the mark in it.', rfc: 'BIMI Group SVG guidance' },
  script: { code: 'BIMI_SVG_SCRIPT', fix: 'Remove every <script> element and on…= event attribute.' },
  'external-reference': { code: 'BIMI_SVG_EXTERNAL_REFERENCE', fix: 'Inline everything the logo uses: only "#id" references within the file are allowed.' },
  animation: { code: 'BIMI_SVG_ANIMATION', fix: 'Remove animation elements (<animate>, <set>, <animateTransform> …): the logo must be static.' },
  'raster-image': { code: 'BIMI_SVG_RASTER_IMAGE', fix: 'Replace the embedded <image> with vector paths: raster images are not allowed.' },
  'forbidden-element': { code: 'BIMI_SVG_FORBIDDEN_ELEMENT', fix: 'Remove links, media and embedded documents (<a>, <foreignObject>, <video> …) from the logo.' },
};

/** Each broken rule of the profile, one finding each. */
export function svgFindings(url: string, violations: readonly SvgViolation[]): Finding[] {
  return violations.map((violation) => {
    const words = SVG_CODES[violation.rule];
    return {
      code: words.code,
      severity: violation.severity,
      message: `The logo is not valid SVG Tiny PS: ${violation.message}, so receivers do not show it.`,
      rfc: words.rfc ?? TINY_PS,
      recommendation: words.fix,
      url,
    };
  });
}

export function certificateUnreadableFinding(url: string, reason: string): Finding {
  return {
    code: 'BIMI_CERT_INVALID',
    severity: 'error',
    message: `The file at ${url} is not a usable Mark Certificate: ${reason}.`,
    rfc: VMC_DRAFT,
    recommendation: 'Publish the PEM file your Mark Verifying Authority issued, unchanged: the Mark Certificate first, then its intermediates.',
    url,
  };
}

function certError(code: string, message: string, recommendation: string, rfc: string, severity: Finding['severity'] = 'error'): Finding {
  return { code, severity, message, rfc, recommendation };
}

/** The Mark Certificate judged as receivers judge it; `domains` are the names it must cover. */
export function certificateFindings(cert: MarkCertificate, domains: readonly string[], logo: Buffer | null, now = new Date()): Finding[] {
  const findings: Finding[] = [];
  const renew = 'Renew the Mark Certificate with your Mark Verifying Authority and publish the new PEM at the a= URL.';
  if (cert.validTo.getTime() < now.getTime()) {
    findings.push(certError('BIMI_CERT_EXPIRED', `The Mark Certificate expired on ${cert.validTo.toISOString().slice(0, 10)}, so receivers show no logo.`, renew, 'RFC 5280 §4.1.2.5'));
  } else if (cert.validFrom.getTime() > now.getTime()) {
    findings.push(certError('BIMI_CERT_NOT_YET_VALID', `The Mark Certificate is valid only from ${cert.validFrom.toISOString().slice(0, 10)}, so receivers show no logo yet.`, 'Wait for the start date or ask the issuer for a certificate valid now.', 'RFC 5280 §4.1.2.5'));
  } else if (cert.daysRemaining < EXPIRY_WARNING_DAYS) {
    findings.push(certError('BIMI_CERT_EXPIRING_SOON', `The Mark Certificate expires in ${cert.daysRemaining} day${cert.daysRemaining === 1 ? '' : 's'} (${cert.validTo.toISOString().slice(0, 10)}).`, renew, 'RFC 5280 §4.1.2.5', 'warning'));
  }
  if (!cert.bimiEku) {
    findings.push(
      certError(
        'BIMI_CERT_NOT_MARK_CERTIFICATE',
        'The certificate at a= is not a Mark Certificate: it lacks the BIMI extended key usage (1.3.6.1.5.5.7.3.31), so receivers reject it.',
        'Publish a Verified Mark Certificate or Common Mark Certificate at a=, not a TLS or other certificate.',
        MC_GUIDELINES,
      ),
    );
  } else if (cert.markType === null) {
    findings.push({
      code: 'BIMI_CERT_MARK_TYPE_UNKNOWN',
      severity: 'info',
      message: cert.markTypeName === null ? 'The Mark Certificate names no mark type, so it is not known whether it is a VMC or a CMC.' : `The Mark Certificate's mark type "${cert.markTypeName}" is not one the scanner knows as a VMC or CMC.`,
      rfc: `${MC_GUIDELINES}.4.2.2`,
    });
  }
  if (cert.selfSigned) {
    findings.push(certError('BIMI_CERT_SELF_SIGNED', 'The Mark Certificate is self-signed, so no Mark Verifying Authority vouches for the logo and receivers reject it.', 'Obtain the certificate from a Mark Verifying Authority.', 'RFC 5280 §6.1'));
  } else if (cert.chainProblem) {
    findings.push(certError('BIMI_CERT_CHAIN_INVALID', `The Mark Certificate's chain is broken: ${cert.chainProblem}.`, 'Publish the PEM as issued: the Mark Certificate first, then each intermediate in order.', 'RFC 5280 §6.1'));
  } else if (cert.trusted === null) {
    findings.push({
      code: 'BIMI_CERT_TRUST_UNKNOWN',
      severity: 'info',
      message: `The Mark Certificate's chain ends at "${cert.topIssuer}", which is not among the scanner's trusted roots; Mark Certificate roots are a separate list receivers keep, so trust was not judged.`,
      rfc: VMC_DRAFT,
    });
  }
  if (cert.bimiEku && !domains.some((domain) => cert.dnsNames.includes(domain))) {
    findings.push(
      certError(
        'BIMI_CERT_DOMAIN_MISMATCH',
        `The Mark Certificate is issued for ${cert.dnsNames.length > 0 ? cert.dnsNames.join(', ') : 'no domain'}, not for ${domains.join(' or ')}, so receivers reject it for this domain.`,
        `Have ${domains[0] ?? 'the domain'} added to the Mark Certificate's subjectAltName.`,
        VMC_DRAFT,
      ),
    );
  }
  if (cert.embeddedLogo === null) {
    if (cert.bimiEku) findings.push(certError('BIMI_CERT_NO_LOGO', 'The Mark Certificate carries no SVG logo in its logotype extension, so receivers have no verified logo to show.', 'Ask your Mark Verifying Authority to reissue the certificate with your SVG Tiny PS logo embedded.', 'RFC 3709 §4.1'));
  } else if (logo !== null && !logo.equals(cert.embeddedLogo)) {
    findings.push(
      certError(
        'BIMI_CERT_LOGO_MISMATCH',
        'The logo at l= differs from the logo embedded in the Mark Certificate, so receivers show neither.',
        'Serve at l= exactly the SVG file the certificate was issued for (byte for byte), or have the certificate reissued with the new logo.',
        `${DRAFT} §7.9`,
      ),
    );
  }
  return findings;
}
