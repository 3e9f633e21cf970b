import { gunzipSync } from 'node:zlib';
import type { BimiDetails, Finding } from '@sendwell/contracts';
import { organizationalDomain } from '../shared/dmarc/org-domain.js';
import type { Check, CheckContext, CheckResult } from '../types.js';
import { inspectMarkCertificate, readPemChain } from './certificate.js';
import { discoverRecords } from './discovery.js';
import { dmarcPrecondition } from './dmarc.js';
import {
  AUTHORITY,
  LOGO,
  certificateFindings,
  certificateUnreadableFinding,
  declinedFinding,
  fetchFindings,
  ignoredRecordFinding,
  missingFinding,
  multipleRecordsFinding,
  noCertificateFinding,
  svgFindings,
} from './findings.js';
import { fetchHttps, type FetchConfig, type HttpsFetch } from '../https-fetch.js';
import { parseBimiRecord } from './record.js';
import { validateSvg, type SvgReport } from './svg.js';
import { bimiVerdict, declinedResult, missingResult, unknownResult, type BimiOutcome } from './verdict.js';

/**
 * BIMI (draft-brand-indicators-for-message-identification) as a receiver sees it: the assertion
 * record at `default._bimi` (§4.3, discovery §7.2), the DMARC enforcement it depends on (§7.1), the
 * logo fetched over HTTPS (§7.5) and validated as SVG Tiny PS (§7.6), and the Mark Certificate at
 * a= (a VMC or CMC): valid, a BIMI certificate, for this domain, chained, and carrying the same logo
 * (§7.9). Every fault is collected in one scan, so the user sees all of them at once.
 */

/** The decompressed logo is bounded too, in case l= serves a small gzip bomb as SVGZ. */
export const MAX_DECOMPRESSED_LOGO = 1024 * 1024;

export const bimiCheck: Check<'bimi'> = async (ctx: CheckContext): Promise<CheckResult<BimiDetails>> => {
  const { domain, resolver } = ctx;
  const orgDomain = organizationalDomain(domain);
  const discovery = await discoverRecords(resolver, domain, orgDomain);
  if (discovery.outcome === 'failed') return unknownResult(discovery.name, discovery.reason);
  const { records, ignored, name, recordDomain } = discovery;
  if (records.length === 0 && ignored.length === 0) return missingResult(domain, missingFinding(domain));
  const outcome: BimiOutcome = { domain, recordDomain, record: null, logoUrl: null, authorityUrl: null, dmarc: null, logo: null, certificate: null, logoValid: null, findings: [], undetermined: false };
  if (records.length !== 1) {
    outcome.findings = records.length === 0 ? ignored.map((record) => ignoredRecordFinding(name, record)) : [multipleRecordsFinding(name, records.length)];
    return bimiVerdict(outcome);
  }

  const record = records[0] as string;
  const parsed = parseBimiRecord(record);
  const recordErrors = parsed.findings.some((finding) => finding.severity === 'error');
  if (parsed.declined && !recordErrors) return declinedResult(name, record, recordDomain, [declinedFinding(name), ...parsed.findings]);
  outcome.record = record;
  outcome.logoUrl = parsed.logoUrl?.href ?? (parsed.l || null);
  outcome.authorityUrl = parsed.authorityUrl?.href ?? (parsed.a || null);

  const fetchConfig = (limit: number, accept: string): FetchConfig => ({
    defaultPort: ctx.config.httpsPort,
    timeoutMs: ctx.config.timeoutMs,
    outbound: ctx.config.outbound,
    extraCa: ctx.config.tlsExtraCa,
    maxBytes: limit,
    accept,
    userAgent: 'SendwellScanner/1 (BIMI check)',
  });
  // The three are independent: DMARC, the logo and the certificate are judged in parallel.
  const [dmarc, logoFetch, authorityFetch] = await Promise.all([
    dmarcPrecondition(ctx),
    parsed.logoUrl ? fetchHttps(resolver, parsed.logoUrl, fetchConfig(LOGO.limitBytes, 'image/svg+xml')) : null,
    parsed.authorityUrl ? fetchHttps(resolver, parsed.authorityUrl, fetchConfig(AUTHORITY.limitBytes, 'application/x-pem-file, application/pem-certificate-chain, */*')) : null,
  ]);
  outcome.dmarc = dmarc;

  const logo = logoFetch ? judgeLogo(logoFetch) : null;
  const certificate = authorityFetch ? judgeCertificate(ctx, authorityFetch, [domain, recordDomain, orgDomain], logo?.bytes ?? null) : null;
  outcome.logo = logo?.details ?? null;
  outcome.logoValid = logo?.report ? !logo.report.violations.some((violation) => violation.severity === 'error') : null;
  outcome.certificate = certificate?.details ?? { present: false };
  const noCertificate = !parsed.a && !parsed.declined ? [noCertificateFinding()] : [];
  outcome.findings = [...parsed.findings, ...dmarc.findings, ...(logo?.findings ?? []), ...(certificate?.findings ?? []), ...noCertificate];
  outcome.undetermined = dmarc.enforced === null || logoFetch?.dnsError != null || authorityFetch?.dnsError != null;
  return bimiVerdict(outcome);
};

interface LogoJudgement {
  details: NonNullable<BimiDetails['logo']>;
  report: SvgReport | null;
  /** The SVG as served (decompressed when it was SVGZ), for the comparison with the certificate's. */
  bytes: Buffer | null;
  findings: Finding[];
}

/** The SVG text of the body: SVGZ is decompressed (RFC 6170 §5.2); anything but UTF-8 is not read. */
function svgText(body: Buffer): { bytes: Buffer; text: string } | string {
  let bytes = body;
  if (body[0] === 0x1f && body[1] === 0x8b) {
    try {
      bytes = gunzipSync(body, { maxOutputLength: MAX_DECOMPRESSED_LOGO });
    } catch {
      return 'it is gzip-compressed (SVGZ) but does not decompress to a document of at most 1 MB';
    }
  }
  try {
    return { bytes, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return 'it is not UTF-8 text';
  }
}

function judgeLogo(fetch: HttpsFetch): LogoJudgement {
  const findings = fetchFindings(LOGO, fetch);
  const response = fetch.response;
  const sizeBytes = response?.body ? response.body.length : response?.tooLarge ? response.announcedLength : null;
  const base = { fetched: response?.status === 200 && response.body !== null, sizeBytes, profile: null, square: null, width: null, height: null, title: null };
  if (!response?.body || response.status !== 200) return { details: { ...base, errors: [] }, report: null, bytes: null, findings };
  const decoded = svgText(response.body);
  const report: SvgReport =
    typeof decoded === 'string'
      ? { profile: null, version: null, width: null, height: null, square: null, title: null, violations: [{ rule: 'document', severity: 'error', message: decoded }] }
      : validateSvg(decoded.text);
  findings.push(...svgFindings(fetch.url, report.violations));
  return {
    details: { ...base, profile: report.profile, square: report.square, width: report.width, height: report.height, title: report.title, errors: report.violations.map((violation) => violation.message) },
    report,
    bytes: typeof decoded === 'string' ? null : decoded.bytes,
    findings,
  };
}

interface CertificateJudgement {
  details: NonNullable<BimiDetails['certificate']>;
  findings: Finding[];
}

function judgeCertificate(ctx: CheckContext, fetch: HttpsFetch, domains: string[], logo: Buffer | null): CertificateJudgement {
  const findings = fetchFindings(AUTHORITY, fetch);
  const body = fetch.response?.status === 200 ? fetch.response.body : null;
  if (!body) return { details: { present: false }, findings };
  const chain = readPemChain(body.toString('latin1'));
  const cert = typeof chain === 'string' ? chain : inspectMarkCertificate(chain, ctx.config.tlsExtraCa);
  if (typeof cert === 'string') return { details: { present: false }, findings: [...findings, certificateUnreadableFinding(fetch.url, cert)] };
  findings.push(...certificateFindings(cert, [...new Set(domains)], logo));
  return {
    details: {
      present: true,
      subject: cert.subject,
      issuer: cert.issuer,
      validTo: cert.validTo.toISOString(),
      daysRemaining: cert.daysRemaining,
      markType: cert.markType,
      logoMatches: cert.embeddedLogo && logo ? logo.equals(cert.embeddedLogo) : null,
      trusted: cert.trusted,
    },
    findings,
  };
}
