import { reportAddressOf } from '@sendwell/contracts';
import type { CheckContext } from '../types.js';

/**
 * The address DMARC recommendations suggest for rua (and ruf): the domain's own at the intake, so
 * the reports arrive in Sendwell; a domain scanned without a row (quick check, CLI) gets the generic
 * `dmarc@<organisational domain>`, as there is no address of ours for it.
 */
export function suggestedReportAddress(ctx: Pick<CheckContext, 'reportToken' | 'config'>, orgDomain: string): string {
  return intakeReportAddress(ctx) ?? `dmarc@${orgDomain}`;
}

/** `<report_token>@<INTAKE_DOMAIN>`, or null when the scan has no token or no intake domain. */
export function intakeReportAddress({ reportToken, config }: Pick<CheckContext, 'reportToken' | 'config'>): string | null {
  return reportToken && config.intakeDomain ? reportAddressOf(reportToken, config.intakeDomain) : null;
}
