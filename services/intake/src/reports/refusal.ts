/**
 * Why a report was not read. Everything a report carries comes from outside: a refusal says what
 * was wrong in words a sender or a user uploading a file can act on (the upload answers 400 with
 * it), and nothing of the report is kept.
 */
export type RefusalCode =
  | 'TOO_LARGE'
  | 'DECOMPRESSED_TOO_LARGE'
  | 'COMPRESSION_RATIO'
  | 'MALFORMED_CONTAINER'
  | 'NO_REPORT_FOUND'
  | 'MALFORMED_XML'
  | 'DTD_REFUSED'
  | 'NOT_AN_AGGREGATE_REPORT'
  | 'TOO_MANY_RECORDS'
  | 'POLICY_DOMAIN_MISMATCH'
  | 'MALFORMED_JSON'
  | 'NOT_A_TLS_REPORT'
  | 'NOT_A_FAILURE_REPORT'
  /** The domain's owner is on a plan without mail flow. */
  | 'PLAN_WITHOUT_MAIL_FLOW'
  /** The report's period ended before the plan's retention window: it would be pruned at once. */
  | 'REPORT_TOO_OLD'
  /** The report's period begins more than two days ahead: a wrong clock or a forged report. */
  | 'REPORT_IN_FUTURE'
  /** The message's domain was deleted (or never known) before the message was read. */
  | 'DOMAIN_GONE';

export class ReportRefusal extends Error {
  override name = 'ReportRefusal';

  constructor(
    readonly code: RefusalCode,
    message: string,
  ) {
    super(message);
  }
}

export function refuse(code: RefusalCode, message: string): never {
  throw new ReportRefusal(code, message);
}
