/*
 * The check types, apart from their schemas: a screen that only needs the list (or isCoreCheckType)
 * imports no zod with it (entities/check.ts builds the schemas on these and re-exports them).
 */
/** The six checks of the specification: a domain card's rows, a scan's "n/6 checks passed", the overall status. */
export const coreCheckTypes = ['spf', 'dkim', 'dmarc', 'blacklist', 'ssl_certificate', 'dns_performance'] as const;
export type CoreCheckType = (typeof coreCheckTypes)[number];
/**
 * The second depth: how mail travels (MTA-STS, TLS-RPT, the MX hosts' STARTTLS, DANE), who the sending
 * addresses say they are (forward-confirmed reverse DNS), the brand's logo (BIMI) and whether the
 * zone's answers can be trusted (DNSSEC). Stored and scored like the core checks,
 * shown on the detail page and in reports; a missing one is optional hardening, so it never makes a
 * domain's overall status worse than a warning (see the scanner's domain-status.ts).
 */
export const mailCheckTypes = ['mta_sts', 'tls_rpt', 'smtp', 'reverse_dns', 'dane', 'bimi', 'dnssec'] as const;
export type MailCheckType = (typeof mailCheckTypes)[number];
export const checkTypes = [...coreCheckTypes, ...mailCheckTypes] as const;
export const isCoreCheckType = (type: string): type is CoreCheckType => (coreCheckTypes as readonly string[]).includes(type);
