/**
 * A domain's report addresses (issue "mail flow"): pure, so the scanner's recommendations, the web's
 * guide and the intake's RCPT check all spell them the same way from `domains.report_token`.
 */

/** INTAKE_DOMAIN's development default; every service reading INTAKE_DOMAIN refuses it in production. */
export const DEV_INTAKE_DOMAIN = 'reports.sendwell.localhost';

/** `<token>@<intakeDomain>`: where the domain's DMARC aggregate (rua) and failure (ruf) reports go. */
export function reportAddressOf(token: string, intakeDomain: string): string {
  return `${token}@${intakeDomain}`;
}

/** `tls-<token>@<intakeDomain>`: TLS-RPT by mail (RFC 8460 §3). */
export function tlsRptAddressOf(token: string, intakeDomain: string): string {
  return `tls-${token}@${intakeDomain}`;
}

/**
 * The one record the intake domain's operator publishes so receivers send reports for every domain
 * to it (RFC 7489 §7.1 external destination verification, answered by a wildcard).
 */
export function reportAuthorizationRecord(intakeDomain: string): { host: string; value: string } {
  return { host: `*._report._dmarc.${intakeDomain}`, value: 'v=DMARC1' };
}
